// Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof`): the functions with the most
// self time, and the most inclusive time among our own code.
//   node --import tsx bench/profile-summary.ts bench/profiles/CPU....cpuprofile [top]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);
// A shell glob matching two profiles (the main thread's and the checkpoint thread's) would pass the second as `top`.
if (!Number.isInteger(top) || top < 1) throw new Error(`usage: profile-summary.ts FILE.cpuprofile [top]; got ${topArg} as top`);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
// Percentages are of the time the process was busy: idle time depends on how long the bench waited.
const isIdle = (id: number) => ['(idle)', '(program)'].includes((byId.get(id) as Node).callFrame.functionName);
const total = [...selfUs].filter(([id]) => !isIdle(id)).reduce((a, [, us]) => a + us, 0);

const where = (n: Node) => {
  const url = n.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|dist\/src)\//, '$1/');
  const short = url.startsWith('dist/src/') ? url : url.split('/').slice(-2).join('/');
  return `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
};

const selfBy = new Map<string, number>();
const inclusiveBy = new Map<string, number>();
const callersOf = new Map<string, Map<string, number>>();
for (const [id, us] of selfUs) {
  if (isIdle(id)) continue;
  const node = byId.get(id) as Node;
  selfBy.set(where(node), (selfBy.get(where(node)) ?? 0) + us);
  const chain: string[] = [];
  for (let cur = parent.get(id); cur !== undefined && chain.length < 4; cur = parent.get(cur)) chain.push(where(byId.get(cur) as Node));
  const callers = callersOf.get(where(node)) ?? new Map<string, number>();
  callers.set(chain.join(' < '), (callers.get(chain.join(' < ')) ?? 0) + us);
  callersOf.set(where(node), callers);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const key = where(byId.get(cur) as Node);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusiveBy.set(key, (inclusiveBy.get(key) ?? 0) + us);
  }
}
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
const print = (title: string, map: Map<string, number>, filter: (k: string) => boolean) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    process.stdout.write(`${pct(us)}  ${k}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s busy\n`);
print('self time', selfBy, () => true);
print('inclusive time, service code', inclusiveBy, (k) => k.includes('dist/src/'));
process.stdout.write('\nmain callers of the top 8 by self time\n');
for (const [k] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
  const [chain, us] = [...(callersOf.get(k) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  process.stdout.write(`${pct(us)}  ${k}  <  ${chain}\n`);
}
