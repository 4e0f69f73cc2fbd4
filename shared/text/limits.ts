/** Files above this size are reported, not parsed: a text of this many characters (the editor's)… */
export const MAX_FILE_CHARS = 5 * 1024 * 1024;
/** …or a file of this many bytes on disk, which is never read in full. */
export const MAX_FILE_BYTES = MAX_FILE_CHARS;

/** "12.3 MB, above the 5 MB limit". */
export function sizeOverLimit(size: number, limit: number): string {
  return `${(size / 1024 / 1024).toFixed(1)} MB, above the ${Math.round(limit / 1024 / 1024)} MB limit`;
}

/** The reason a file of `size` characters or bytes is not checked. */
export function tooLargeReason(size: number, limit = MAX_FILE_BYTES): string {
  return `The file is ${sizeOverLimit(size, limit)}, so it is not checked; a definition this large is almost certainly not one.`;
}

/** Why a text is not parsed at all: too large, or binary. */
export function unreadableReason(text: string): string | undefined {
  if (text.length > MAX_FILE_CHARS) return tooLargeReason(text.length, MAX_FILE_CHARS);
  if (text.includes('\u0000')) return 'The file holds NUL bytes, so it is binary, not a definition; it is not checked.';
  return undefined;
}
