import { formatLeadBenchTable, runLeadBench } from './leads.ts';

// `npm run bench [-- <name>…]`: every load run (or only the named ones), each printing its table.
// Not part of `npm test`. Add a run by adding an entry.

const BENCHES: Record<string, () => Promise<string>> = {
  leads: async () => `Lead API (POST /api/leads)\n\n${formatLeadBenchTable(await runLeadBench())}`,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !Object.hasOwn(BENCHES, name));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of requested.length > 0 ? requested : Object.keys(BENCHES)) {
  console.log(`\n${await BENCHES[name]!()}\n`);
}
