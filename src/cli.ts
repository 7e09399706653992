/**
 * Entry point of the CLI: `npx tsx src/cli.ts <command>`. See `src/cli/main.ts`.
 * @module
 */
import process from 'node:process';
import { main } from './cli/main.ts';
import { processIo } from './cli/usage.ts';

// A reader that stops early (`slicer-auth permanent list | head -1`) ends the output, not the command, as in other CLIs.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
process.exitCode = await main(process.argv.slice(2), processIo);
