// The README's install commands for a self-hosted n8n, run as written in an empty home folder (a fresh
// n8n: no ~/.n8n/nodes yet) with the package's tarball: the package must land where n8n loads community
// nodes, ~/.n8n/nodes/node_modules/<name>, and nothing may be installed in a parent folder.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
/** Where the README's `cp` takes the tarball from: replaced by the folder the test packed it into. */
const PLACEHOLDER = '/path/to/';

/** The README's code block that runs `npm install` in ~/.n8n/nodes (its lines, indentation removed). */
function readmeInstallBlock() {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const install = readme.slice(readme.indexOf('\n## Install'), readme.indexOf('\n## Credential'));
	const block = [...install.matchAll(/^( *)```bash\n([\s\S]*?)^ *```/gm)]
		.map((match) =>
			match[2]
				.split('\n')
				.map((line) => line.slice(match[1].length))
				.join('\n'),
		)
		.find((text) => /cd ~\/\.n8n\/nodes/.test(text) && /npm install/.test(text));
	if (!block)
		throw new Error(
			'no code block in the README’s Install section runs npm install in ~/.n8n/nodes',
		);
	return block;
}

/** The environment of a user with an empty home folder: no npm settings inherited from `npm test`. */
function freshEnvironment(home) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(
			([key]) => !/^npm_/i.test(key) && key !== 'N8N_USER_FOLDER' && key !== 'INIT_CWD',
		),
	);
	return {
		...env,
		HOME: home,
		// Only what npm says around the install, not what it does.
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
		npm_config_loglevel: 'error',
	};
}

describe('the README’s install commands', () => {
	let work;
	let tarballDir;

	beforeAll(() => {
		work = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-readme-install-'));
		tarballDir = path.join(work, 'build');
		fs.mkdirSync(tarballDir);
		// `npm test` built dist/ before the unit tests; run alone, the test builds it.
		if (!fs.existsSync(path.join(ROOT, 'dist', 'nodes')))
			execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
		execFileSync('npm', ['pack', '--silent', '--pack-destination', tarballDir], {
			cwd: ROOT,
			stdio: 'pipe',
		});
	});

	afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

	it('name the tarball npm pack writes and take it from a path the user replaces', () => {
		const block = readmeInstallBlock();
		expect(fs.existsSync(path.join(tarballDir, TARBALL))).toBe(true);
		expect(block).toContain(`${PLACEHOLDER}${TARBALL}`);
		expect(block).toContain(`./${TARBALL}`);
	});

	it('install the package into ~/.n8n/nodes of a fresh n8n (no such folder yet), and nowhere else', () => {
		const home = path.join(work, 'home');
		fs.mkdirSync(home);
		// A package.json in a parent folder (here the home folder) is where npm installs when the nodes
		// folder has none of its own.
		fs.writeFileSync(path.join(home, 'package.json'), '{}\n');
		const script = readmeInstallBlock().split(PLACEHOLDER).join(`${tarballDir}/`);

		execFileSync('bash', ['-e', '-c', script], {
			cwd: home,
			env: freshEnvironment(home),
			stdio: 'pipe',
		});

		const nodes = path.join(home, '.n8n', 'nodes');
		const installed = path.join(nodes, 'node_modules', pkg.name, 'package.json');
		expect(JSON.parse(fs.readFileSync(installed, 'utf8')).version).toBe(pkg.version);
		expect(
			JSON.parse(fs.readFileSync(path.join(nodes, 'package.json'), 'utf8')).dependencies,
		).toEqual({
			[pkg.name]: `file:${TARBALL}`,
		});
		// The tarball stays beside package.json, which refers to it.
		expect(fs.existsSync(path.join(nodes, TARBALL))).toBe(true);
		// Not installed into a parent folder, and no n8n-workflow of its own (n8n's is used).
		expect(fs.readFileSync(path.join(home, 'package.json'), 'utf8')).toBe('{}\n');
		expect(fs.existsSync(path.join(home, 'node_modules'))).toBe(false);
		expect(fs.existsSync(path.join(home, '.n8n', 'node_modules'))).toBe(false);
		expect(fs.existsSync(path.join(nodes, 'node_modules', 'n8n-workflow'))).toBe(false);
	});
});
