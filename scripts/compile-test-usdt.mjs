#!/usr/bin/env node
// Compiles the tests' ERC-20 (tests/fixtures/usdt/TestUsdt.sol) with the `solc` npm package and keeps
// its ABI and bytecode in TestUsdt.json beside it. The tests deploy from the kept JSON, so no test
// compiles; run this after changing the Solidity source and commit both files.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'fixtures', 'usdt');
const source = readFileSync(join(dir, 'TestUsdt.sol'), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'TestUsdt.sol': { content: source } },
  settings: {
    // Paris: no PUSH0, so the bytecode also deploys on nodes configured for older forks.
    evmVersion: 'paris',
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contract = output.contracts['TestUsdt.sol'].TestUsdt;
const json = { compiler: `solc ${solc.version()}`, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
writeFileSync(join(dir, 'TestUsdt.json'), `${JSON.stringify(json, null, 2)}\n`);
console.log(
  `wrote ${join(dir, 'TestUsdt.json')} (${contract.evm.bytecode.object.length / 2} bytes of bytecode, ${json.compiler})`,
);
