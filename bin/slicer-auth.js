#!/usr/bin/env node
// The package's bin: the CLI, built to JavaScript by `npm run build` (run by prepack).
import '../dist/src/cli.js';
