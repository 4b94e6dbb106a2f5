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
	testTimeout: 20000,
};
