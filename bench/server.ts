/**
 * The benchmark's servers, in their own process so the client's CPU is the
 * client's alone: a bare loopback echo for the fixed-token rounds, and a test
 * sandbox for the rounds that cross token expiries. Prints one JSON line with
 * their addresses; stops when its standard input closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import process from 'node:process';
import { startSandbox } from '../src/sandbox/mod.ts';

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const sandbox = await startSandbox({ testMode: true });
console.log(JSON.stringify({ echo: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sandbox: sandbox.env }));
process.stdin.resume();
process.stdin.on('end', async () => {
  server.closeAllConnections();
  server.close();
  await sandbox.close();
});
