/**
 * Entry point of the CLI: `npx tsx src/cli.ts <command>`. See `src/cli/main.ts`.
 * @module
 */
import process from 'node:process';
import { main } from './cli/main.ts';
import { processIo } from './cli/usage.ts';

process.exitCode = await main(process.argv.slice(2), processIo);
