import { formatLeadBenchTable, runLeadBench } from './leads.ts';

// `npm run bench`: the load runs, each printing its table. Not part of `npm test`.

const result = await runLeadBench();
console.log(`\nLead API (POST /api/leads)\n\n${formatLeadBenchTable(result)}\n`);
