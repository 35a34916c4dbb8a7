// The `orepanel` command from the TypeScript sources, in a child process of a test (see ts-child.mjs).
const { main } = await import('../../server/cli.ts');
process.exitCode = await main(process.argv.slice(2));
