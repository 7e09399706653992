/**
 * A process of the shared-cache tests: gets one token with the environment's
 * configuration (SLICER_CACHE_FILE included) and prints its fingerprint.
 */
import { createHash } from 'node:crypto';
import { getToken } from '../../mod.ts';
import { parseScope } from '../settings/services.ts';

const scope = process.env.WORKER_SCOPE;
const token = await getToken(scope ? parseScope(scope) : undefined);
console.log(`token ${createHash('sha256').update(token).digest('hex').slice(0, 16)}`);
