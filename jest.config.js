// Five suites (jest projects), each with its own npm script; `npx jest` alone runs all five, and `npm test`
// (test/run-all.sh) runs and counts each (`--selectProjects NAME`):
// - unit (`npm run test:unit`): the nodes and the trigger through n8n-core's WorkflowExecute, nock for the
//   service; test/unit/ and test/trigger/. The quick loop while changing the nodes.
// - scripts (`npm run test:scripts`): the repository's scripts: the package checks, the test command's
//   counting (it runs bash), the README's install commands (it builds, packs and runs npm install).
// - integration (`npm run test:integration`): the service sandbox (its own tests start its CLI) and the
//   nodes against it.
// - perf (`npm run test:perf`): the per-item cost guard, 1000 items through the node and a baseline.
// - histories (`npm run test:histories`): duplicate protection's promises over seeded random histories
//   (test/histories/), at least 100 and as many as fit in 60 s.
const shared = {
	testEnvironment: 'node',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup-env.js'],
};

const tests = (...folders) =>
	folders.flatMap((folder) => [
		`<rootDir>/test/${folder}/**/*.test.ts`,
		`<rootDir>/test/${folder}/**/*.test.js`,
	]);

const projects = [
	{ ...shared, displayName: 'unit', testMatch: tests('unit', 'trigger') },
	{ ...shared, displayName: 'scripts', testMatch: tests('scripts') },
	{ ...shared, displayName: 'integration', testMatch: tests('integration', 'sandbox') },
	{ ...shared, displayName: 'perf', testMatch: tests('perf') },
	{ ...shared, displayName: 'histories', testMatch: tests('histories') },
];

// CV_JEST_SUITE=unit (the npm scripts): that suite only. Unlike `--selectProjects unit`, which takes every
// word after it as one more project name, it leaves jest's own arguments as they are:
// `npm run test:unit -- test/unit/profile.test.ts --watch` runs that file, watching.
const suite = process.env.CV_JEST_SUITE;
const selected = suite ? projects.filter((project) => project.displayName === suite) : projects;
if (selected.length === 0)
	throw new Error(`CV_JEST_SUITE=${suite}: no such suite (${projects.map((p) => p.displayName)})`);

/** @type {import('jest').Config} */
module.exports = {
	projects: selected,
	// A bound for a test that hangs, not a speed limit: runs of 1000 rows through n8n's WorkflowExecute
	// took 13-21 s beside two CPU-bound loops on 2 cores (the cold test command, test/results/cold-test-command.md).
	testTimeout: 90000,
};
