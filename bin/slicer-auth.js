#!/usr/bin/env node
// The package's bin: runs the TypeScript CLI (src/cli.ts) through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
