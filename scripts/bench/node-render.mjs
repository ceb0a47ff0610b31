// Node's side of the memo-miss figure of `make bench`: renders the same input with the same
// server bundle in V8, and prints the median and p95 in milliseconds as JSON.
// Usage: node node-render.mjs BUNDLE INPUT-JSON
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const [, , bundle, inputFile] = process.argv;
vm.runInThisContext(readFileSync(bundle, 'utf8'));
// The bundle loads its pages through promises: let them settle before the first render.
await new Promise((resolve) => setImmediate(resolve));
const input = readFileSync(inputFile, 'utf8');
for (let i = 0; i < 20; i++) globalThis.render(input);
const times = [];
for (let i = 0; i < 200; i++) {
  const t = process.hrtime.bigint();
  globalThis.render(input);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ median: times[100], p95: times[190] }));
process.exit(0); // whatever the bundle left scheduled does not hold the process
