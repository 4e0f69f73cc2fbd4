/** One mocha test per named input: `cases` maps a title to the text handed to `body`. */
export function itForEach(cases: Record<string, string>, body: (text: string, title: string) => void): void {
  for (const [title, text] of Object.entries(cases)) it(title, () => body(text, title));
}
