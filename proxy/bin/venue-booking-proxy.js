#!/usr/bin/env node
// Runs the TypeScript entry through tsx, so the bin works from a checkout with no build step.
import { tsImport } from 'tsx/esm/api';

await tsImport('../node.ts', import.meta.url);
