/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts', '**/*.test.js'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup-env.js'],
	// A bound for a test that hangs, not a speed limit: runs of 1000 rows through n8n's WorkflowExecute
	// took 13-21 s beside two CPU-bound loops on 2 cores (the cold test command, test/results/cold-test-command.md).
	testTimeout: 90000,
};
