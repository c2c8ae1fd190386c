#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's scoped loader, so no build step is needed.
import { tsImport } from 'tsx/esm/api';

await tsImport('../sandbox/cli.ts', import.meta.url);
