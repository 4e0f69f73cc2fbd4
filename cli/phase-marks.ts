/**
 * Phase marks for measuring a run (docs/performance.md): with SUBAGENTS_MARKS=1 in the
 * environment, the CPU time (user + system) spent between marks is summed per phase name and
 * printed as one JSON line on stderr at exit. Without it, a mark is one lookup. The list lives
 * on a global symbol: the launcher (dist/cli.js) and the bundle it runs are separate bundles.
 */
const MARKS = Symbol.for('subagents.phaseMarks');

type Mark = [phase: string, cpu: NodeJS.CpuUsage];

/** Called first by the launcher: starts recording when SUBAGENTS_MARKS is set. */
export function startMarks(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.SUBAGENTS_MARKS) return;
  const marks: Mark[] = [['start', process.cpuUsage()]];
  Reflect.set(globalThis, MARKS, marks);
  process.once('exit', () => {
    mark('exit');
    const phases: Record<string, number> = {};
    for (let i = 1; i < marks.length; i++) {
      const [phase, now] = marks[i];
      const before = marks[i - 1][1];
      const ms = (now.user - before.user + now.system - before.system) / 1000;
      phases[phase] = Math.round(((phases[phase] ?? 0) + ms) * 10) / 10;
    }
    process.stderr.write(`subagents: CPU ms by phase: ${JSON.stringify(phases)}\n`);
  });
}

/** Ends a phase: the CPU time since the previous mark counts for `phase`. */
export function mark(phase: string): void {
  const marks = Reflect.get(globalThis, MARKS) as Mark[] | undefined;
  if (marks) marks.push([phase, process.cpuUsage()]);
}
