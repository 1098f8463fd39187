import { buildProgram } from './cli/program.ts';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`cabinet: ${(error as Error).message}`);
    process.exit(1);
  });
