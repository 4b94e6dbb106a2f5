#!/usr/bin/env node
'use strict';

/**
 * `npm run demo` as a user runs it, piped into another program (`npm run demo | tee demo.log`):
 * it gets ready, the printed login works, the example workflow runs, and Ctrl-C (SIGINT to the
 * whole foreground process group, as a terminal sends it, tee included) leaves no n8n or sandbox
 * process behind. Uses free ports and a throw-away demo home. Prints `ok - …` / `FAIL - …` lines
 * and `N passed, N failed`.
 */

const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { N8nClient, sleep } = require('./n8n-client');

const ROOT = path.resolve(__dirname, '../..');
const HOME = path.join(ROOT, '.e2e/demo-check');
const LOG = path.join(HOME, 'demo-output.log');
const READY_TIMEOUT_MS = 8 * 60_000; // a cold cache provisions n8n first
const STOP_TIMEOUT_MS = 60_000;
const DEMO_EMAIL = 'demo@example.com';
const DEMO_PASSWORD = 'Demo-Passw0rd';

let passed = 0;
let failed = 0;
async function check(name, run) {
	try {
		const detail = await run();
		passed++;
		console.log(`ok - ${name}${detail ? ` (${detail})` : ''}`);
		return true;
	} catch (error) {
		failed++;
		console.log(`FAIL - ${name}: ${error.message}`);
		return false;
	}
}

async function until(read, what, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(500);
	}
}

const freePorts = (count) =>
	execFileSync('node', [path.join(__dirname, 'free-ports.js'), String(count)], { encoding: 'utf8' })
		.trim()
		.split('\n');

/** PIDs of the processes listening on 127.0.0.1:port (from `ss`). */
function listeners(port) {
	const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
	return [...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
}

/** True while any process of the group led by pid (n8n and its task runner, the sandbox) lives. */
const alive = (pid) => {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
};

async function main() {
	fs.rmSync(HOME, { recursive: true, force: true });
	fs.mkdirSync(HOME, { recursive: true });
	const [n8nPort, sandboxPort, brokerPort] = freePorts(3);
	const demo = spawn('bash', ['-c', `npm run demo | tee ${JSON.stringify(LOG)} > /dev/null`], {
		cwd: ROOT,
		detached: true, // its own process group, like a terminal's foreground job
		stdio: ['ignore', 'ignore', 'ignore'],
		env: {
			...process.env,
			CV_DEMO_HOME: HOME,
			CV_DEMO_N8N_PORT: n8nPort,
			CV_DEMO_SANDBOX_PORT: sandboxPort,
			CV_DEMO_BROKER_PORT: brokerPort,
		},
	});
	const output = () => (fs.existsSync(LOG) ? fs.readFileSync(LOG, 'utf8') : '');
	const started = Date.now();
	let servers = [];
	try {
		const ready = await check('npm run demo | tee: ready, with the editor URL and the login printed', async () => {
			await until(() => output().includes('Press Ctrl-C to stop.') || demo.exitCode !== null, 'the demo', READY_TIMEOUT_MS);
			if (!output().includes('Press Ctrl-C to stop.')) throw new Error(`the demo exited:\n${output().slice(-2000)}`);
			const text = output();
			if (!text.includes(`http://127.0.0.1:${n8nPort}`) || !text.includes(`${DEMO_EMAIL} / ${DEMO_PASSWORD}`)) {
				throw new Error('the editor URL or the login is missing from the output');
			}
			return `${Math.round((Date.now() - started) / 1000)} s`;
		});
		servers = [...listeners(n8nPort), ...listeners(sandboxPort)];
		if (ready) {
			const n8n = new N8nClient(`http://127.0.0.1:${n8nPort}`);
			await check('the printed login works', async () => {
				await n8n.request('POST', '/rest/login', { body: { emailOrLdapLoginId: DEMO_EMAIL, password: DEMO_PASSWORD } });
				await n8n.createApiKey('demo-check');
			});
			await check('the example workflow "candidates to reports" runs green against the sandbox', async () => {
				const executionId = await n8n.runManually('cvExampleActions', 'Start');
				const execution = await n8n.waitForExecution(executionId, 120_000);
				if (execution.status !== 'success') throw new Error(`execution ${executionId} ended ${execution.status}`);
				return `execution ${executionId}`;
			});
		}
	} finally {
		await check('Ctrl-C (SIGINT to the pipeline) stops the demo and leaves no n8n or sandbox process', async () => {
			if (servers.length < 2) throw new Error(`expected n8n and the sandbox listening, found ${servers.length} process(es)`);
			process.kill(-demo.pid, 'SIGINT');
			await until(() => !servers.some(alive), `n8n and the sandbox (${servers.join(', ')}) to exit`, STOP_TIMEOUT_MS);
			await until(() => listeners(n8nPort).length === 0 && listeners(sandboxPort).length === 0, 'the ports to be free', 10_000);
			return `pids ${servers.join(', ')} gone`;
		});
		try {
			process.kill(-demo.pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.log(`FAIL - demo check crashed: ${error.stack}`);
	console.log(`${passed} passed, ${failed + 1} failed`);
	process.exit(1);
});
