const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { tarballContentProblems } = require('../../scripts/check-package');
const { pruneDist } = require('../../scripts/prune-dist');

/** What `n8n-node build` leaves in dist/: the compiled nodes, and every PNG and SVG of the repository. */
const BUILT = [
	'credentials/CandidateVerificationApi.credentials.js',
	'icons/candidateVerification.svg',
	'icons/candidateVerification.dark.svg',
	'nodes/CandidateVerification/CandidateVerification.node.js',
	'nodes/CandidateVerification/CandidateVerification.node.json',
	'nodes/CandidateVerification/engine/runOperation.js',
	'docs/images/credential.png',
	'docs/images/sheet-rows-workflow.png',
];
const TOP_LEVEL = ['LICENSE', 'README.md', 'package.json'];

describe('the published package holds only what n8n loads', () => {
	it('the package check fails on a README picture (or anything else) in dist/, and on a missing top-level file', () => {
		const problems = tarballContentProblems([
			...TOP_LEVEL.filter((file) => file !== 'LICENSE'),
			...BUILT.map((file) => `dist/${file}`),
			'dist/nodes/CandidateVerification/engine/runOperation.d.ts',
			'test/unit/engine.test.ts',
		]);

		expect(problems).toEqual([
			'not loaded by n8n, yet published: dist/docs/images/credential.png',
			'not loaded by n8n, yet published: dist/docs/images/sheet-rows-workflow.png',
			'not loaded by n8n, yet published: dist/nodes/CandidateVerification/engine/runOperation.d.ts',
			'not loaded by n8n, yet published: test/unit/engine.test.ts',
			'missing from the tarball: LICENSE',
		]);
	});

	it('the build’s prune step removes the pictures from dist/, and the package check then passes', () => {
		const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-dist-'));
		try {
			for (const file of BUILT) {
				fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
				fs.writeFileSync(path.join(dist, file), '');
			}

			const removed = pruneDist(dist);

			expect(removed.sort()).toEqual([
				'docs/images/credential.png',
				'docs/images/sheet-rows-workflow.png',
			]);
			expect(fs.existsSync(path.join(dist, 'docs'))).toBe(false);
			const kept = BUILT.filter((file) => !file.startsWith('docs/')).map((file) => `dist/${file}`);
			expect(tarballContentProblems([...TOP_LEVEL, ...kept])).toEqual([]);
		} finally {
			fs.rmSync(dist, { recursive: true, force: true });
		}
	});
});
