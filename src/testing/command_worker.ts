/**
 * A long-lived process of the shared-store tests: one client configured by
 * the environment, driven line by line on stdin (`get`, `invalidate`,
 * `close`); each answer is one line on stdout (`token <fingerprint>`, `ok`).
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createAuthClient } from '../client.ts';

const client = createAuthClient();
const print = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'get') console.log(`token ${print(await client.getToken())}`);
  else if (line === 'invalidate') await client.invalidate('slicer').then(() => console.log('ok'));
  else if (line === 'close') {
    await client.close();
    console.log('ok');
    break;
  } else console.log(`unknown command ${line}`);
}
