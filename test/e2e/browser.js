'use strict';

/**
 * The package in n8n's editor, in a real browser: Debian Chromium driven by playwright-core,
 * against the e2e n8n started by run.sh (after checks.js, so the example workflows are imported).
 *
 * - signs in as the owner;
 * - adds the trigger and then the action node from the node creator's search, the way a user does
 *   (Form → Create first: its Purpose list must load on a node that was just added, issue 12 #1);
 * - switches that fresh node through every resource/operation;
 * - opens every Candidate Verification node of the example workflows (filled examples): no red
 *   parameter issue;
 * - on every panel: no "Error fetching options", no console error, one screenshot in
 *   CV_SHOTS_DIR (default .e2e/shots/).
 *
 * Prints `ok - ` / `FAIL - ` lines (counted by run.sh), or one `skip - ` line when no Chromium can
 * be had (CV_CHROMIUM_SKIP names why). Environment: CV_N8N_URL, CV_SHOTS_DIR, CV_CHROMIUM.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { launchChromium, signIn } = require('./chromium');
const { N8nClient } = require('./n8n-client');
const {
	ROOT,
	E2E_OWNER,
	SANDBOX_CREDENTIAL,
	describedOperations,
} = require('./package-under-test');
const { createReport } = require('./report');

const N8N_URL = process.env.CV_N8N_URL;
const SHOTS_DIR = process.env.CV_SHOTS_DIR || path.join(ROOT, '.e2e/shots');
const CHROMIUM = process.env.CV_CHROMIUM || '/usr/bin/chromium';
const EXAMPLE_WORKFLOWS = ['cvExampleActions', 'cvExampleTrigger'];
const PACKAGE_NODE = /^n8n-nodes-candidate-verification\./;
const FETCH_ERRORS = ['Error fetching options', 'Could not load list'];

/**
 * Console errors that are n8n's own and not this package's. Everything else fails the panel.
 * - the editor looks the package up on the public npm registry (community node details): no
 *   internet here, so any request to a host other than n8n's own origin fails;
 * - the editor asks n8n for an optional output-schema file of every node it shows
 *   (GET /schemas/<type>/<version>.json); packages without one get a 404.
 */
const IGNORED_CONSOLE_ERRORS = [
	{
		what: 'look-ups of internet hosts',
		matches: (url) => url !== '' && new URL(url).origin !== new URL(N8N_URL).origin,
	},
	{
		what: 'optional output schema 404 (/schemas/…)',
		matches: (url, text) => /^\/schemas\//.test(url && new URL(url).pathname) && /404/.test(text),
	},
];

const report = createReport();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const slug = (text) =>
	text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');

class Editor {
	constructor(page) {
		this.page = page;
		this.consoleErrors = [];
		this.ignored = new Map();
		this.recording = false;
		page.on('console', (message) => {
			if (message.type() === 'error') this.noteError(message.text(), message.location().url || '');
		});
		page.on('pageerror', (error) => this.noteError(`uncaught: ${error.message}`, ''));
	}

	noteError(text, url) {
		if (!this.recording) return;
		const rule = IGNORED_CONSOLE_ERRORS.find((candidate) => candidate.matches(url, text));
		if (rule) {
			const seen = this.ignored.get(rule.what) || new Set();
			this.ignored.set(rule.what, seen.add(url.replace(/\?.*$/, '')));
			return;
		}
		this.consoleErrors.push(`${text}${url ? ` (${url})` : ''}`);
	}

	/** A report step that leaves a screenshot of the page when it fails. */
	step(name, fn) {
		return report.step(name, async () => {
			try {
				return await fn();
			} catch (error) {
				const file = path.join(SHOTS_DIR, `failed-${slug(name).slice(0, 80)}.png`);
				await this.page.screenshot({ path: file }).catch(() => {});
				await this.recover();
				throw error;
			}
		});
	}

	get ndv() {
		return this.page.locator('[data-test-id="ndv"]');
	}

	async signIn() {
		await signIn(this.page, N8N_URL, E2E_OWNER);
		// The sign-in page's own "who am I" probe answers 401 by design: record from here on.
		this.recording = true;
	}

	/** Opens the node creator (from `opener`), searches, picks the node, then the named action or trigger. */
	async addFromNodeCreator(opener, search, itemText) {
		await opener.click({ timeout: 30_000 });
		await this.page.locator('[data-test-id="node-creator-search-bar"]').waitFor();
		await this.page.keyboard.type(search);
		await this.page
			.locator('[data-test-id="node-creator-item-name"]', { hasText: search })
			.first()
			.click();
		await this.page
			.locator('[data-test-id="node-creator"]')
			.getByText(itemText, { exact: true })
			.click();
		await this.ndv.waitFor({ timeout: 30_000 });
	}

	/** After a failed step: closes open lists and the panel so the next step starts clean. */
	async recover() {
		await this.page.keyboard.press('Escape').catch(() => {});
		if (await this.ndv.isVisible().catch(() => false)) await this.closeNdv().catch(() => {});
		this.consoleErrors.splice(0);
	}

	async closeNdv() {
		await this.page.locator('[data-test-id="ndv-close-button"]').first().click();
		await this.ndv.waitFor({ state: 'hidden' });
	}

	async selectOption(parameter, optionName) {
		await this.ndv.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
		await this.page
			.locator('.el-select-dropdown__item:visible')
			.getByText(optionName, { exact: true })
			.first()
			.click();
	}

	/** Waits until no option list is loading any more (bounded). */
	async settle() {
		const deadline = Date.now() + 15_000;
		await sleep(400);
		while ((await this.ndv.getByText(/^Loading options/).count()) > 0 && Date.now() < deadline)
			await sleep(200);
		await sleep(300);
	}

	/** n8n shows a failed options load as the dropdown's placeholder, a failed list as an error box. */
	async assertNoFetchError() {
		const shown = await this.ndv.evaluate((root, needles) => {
			const texts = [root.innerText];
			for (const input of root.querySelectorAll('input, textarea'))
				texts.push(input.placeholder, input.value);
			return needles.filter((needle) => texts.some((text) => text && text.includes(needle)));
		}, FETCH_ERRORS);
		assert.deepEqual(shown, [], `the panel shows ${shown.map((text) => `"${text}"`).join(', ')}`);
	}

	/** The assertions every panel gets, then its screenshot. Returns the screenshot's file name. */
	async inspectPanel(shotName, { filled }) {
		await this.settle();
		await this.assertNoFetchError();
		const listErrors = await this.page
			.locator('[data-test-id="rlc-error-container"]:visible')
			.allInnerTexts();
		assert.deepEqual(listErrors, [], 'a resource locator list failed to load');
		if (filled) {
			const issues = await this.ndv.locator('[data-test-id="parameter-issues"]').count();
			assert.equal(issues, 0, `${issues} parameter(s) marked with an issue`);
		}
		const errors = this.consoleErrors.splice(0);
		assert.deepEqual(errors, [], `console errors: ${errors.join(' | ')}`);
		const file = `${shotName}.png`;
		await this.page.screenshot({ path: path.join(SHOTS_DIR, file) });
		return file;
	}
}

/**
 * n8n preselects the most recently updated credential of its type on a node just added. The e2e
 * instance also holds a credential behind a failing gateway (for checks.js): saving the sandbox
 * credential unchanged makes it the one preselected, as for a user with one working credential.
 */
async function makeMostRecent(client, credentialId) {
	const { name, type, data } = await client.rest(
		'GET',
		`/credentials/${credentialId}?includeData=true`,
	);
	await client.rest('PATCH', `/credentials/${credentialId}`, { name, type, data });
}

async function freshNodeChecks(editor, operations) {
	const { page } = editor;
	const added = await editor.step(
		'node creator: the trigger is found by search and added by its event "On check state change" (Events preset to State Changes), with the credential preselected',
		async () => {
			await page.goto(`${N8N_URL}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await editor.addFromNodeCreator(
				page.locator('[data-test-id="canvas-add-button"]').first(),
				'Candidate Verification',
				'On check state change',
			);
			const credential = await editor.ndv
				.locator('[data-test-id="node-credentials-select"] input')
				.inputValue();
			assert.equal(
				credential,
				SANDBOX_CREDENTIAL.name,
				'the most recent credential is not preselected',
			);
			const preset = await editor.ndv.getByText('State Changes', { exact: true }).count();
			assert.ok(preset > 0, 'Events is not preset to State Changes');
			const shot = await editor.inspectPanel('new-trigger', { filled: false });
			await editor.closeNdv();
			return `credential "${credential}", ${shot}`;
		},
	);
	if (!added) return;

	const form = operations.find(
		({ resource, operation }) => resource.value === 'form' && operation.value === 'create',
	);
	const formAdded = await editor.step(
		`node creator: "${form.operation.action}" added after the trigger; its Purpose lists the service's purposes at once (issue 12 #1)`,
		async () => {
			await editor.addFromNodeCreator(
				page.locator('[data-test-id="canvas-handle-plus"]').first(),
				'Candidate Verification',
				form.operation.action,
			);
			// What issue 12 #1 saw: the first load ran before n8n set the credential, and stayed failed.
			await editor.settle();
			await editor.assertNoFetchError();
			await editor.ndv
				.locator('[data-test-id="resource-locator-purpose"] [data-test-id="rlc-input"]')
				.click();
			const items = page.locator('[data-test-id="rlc-item"]:visible');
			await items.filter({ hasText: 'BGV' }).first().waitFor({ timeout: 20_000 });
			const listed = (await items.allInnerTexts()).map((text) => text.trim());
			// The sandbox's purposes, sorted by name.
			assert.deepEqual(listed, ['Availing Service', 'BGV', 'Compliance', 'KYC']);
			const shot = await editor.inspectPanel('new-form-create-purpose-list', { filled: false });
			await items.filter({ hasText: 'BGV' }).first().click();
			return `${listed.join(', ')}; ${shot}`;
		},
	);
	if (!formAdded) return;

	for (const { resource, operation } of operations) {
		await editor.step(
			`panel ${resource.name} → ${operation.name}: opens on the added node without "Error fetching options" or console errors`,
			async () => {
				await editor.selectOption('resource', resource.name);
				await editor.selectOption('operation', operation.name);
				return editor.inspectPanel(`panel-${slug(resource.value)}-${slug(operation.value)}`, {
					filled: false,
				});
			},
		);
	}
	await typedCheckPanels(editor);
}

/** Version 2's typed checks (issue 34) and the fields each shows on the panel of a node just added. */
const TYPED_CHECK_PANELS = [
	['Degree or Marksheet', ['Level', 'Name as per Document', 'Issue Date', 'Degree Document URL', 'Marksheet URL']],
	['Police Verification (Address)', ['Permanent Address']],
	['Police Clearance Certificate', ['Certificate File URL']],
	['Local Address (Digital)', ['Address Line 1', 'Village / Town / City', 'District', 'State', 'Pincode', 'Country']],
];

async function typedCheckPanels(editor) {
	for (const [check, fields] of TYPED_CHECK_PANELS) {
		await editor.step(
			`panel Verification → Submit, Check "${check}" (node version 2): its typed fields show (${fields.join(', ')}), no Data (JSON)`,
			async () => {
				await editor.selectOption('resource', 'Verification');
				await editor.selectOption('operation', 'Submit');
				await editor.selectOption('verificationName', check);
				await editor.settle();
				for (const field of fields) {
					const shown = await editor.ndv.getByText(field, { exact: true }).count();
					assert.ok(shown > 0, `no field "${field}" on the panel`);
				}
				assert.equal(await editor.ndv.getByText('Data (JSON)', { exact: true }).count(), 0, 'Data (JSON) shows');
				return editor.inspectPanel(`panel-verification-submit-${slug(check)}`, { filled: false });
			},
		);
	}
}

async function exampleNodeChecks(editor, client) {
	const { page } = editor;
	for (const workflowId of EXAMPLE_WORKFLOWS) {
		const workflow = await client.rest('GET', `/workflows/${workflowId}`);
		const nodes = workflow.nodes.filter((node) => PACKAGE_NODE.test(node.type));
		await page.goto(`${N8N_URL}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
		for (const node of nodes) {
			const operation = node.parameters.resource
				? ` (${node.parameters.resource} → ${node.parameters.operation})`
				: '';
			await editor.step(
				`example "${node.name}"${operation}: no parameter issue, no "Error fetching options", no console errors`,
				async () => {
					await page.locator('[data-test-id="zoom-to-fit"]').click();
					await page
						.locator('[data-test-id="canvas-node"]')
						.filter({ hasText: node.name })
						.first()
						.dblclick();
					await editor.ndv.waitFor({ timeout: 30_000 });
					const shot = await editor.inspectPanel(`example-${slug(workflowId)}-${slug(node.name)}`, {
						filled: true,
					});
					await editor.closeNdv();
					return shot;
				},
			);
		}
	}
}

async function main() {
	const unavailable =
		process.env.CV_CHROMIUM_SKIP || (fs.existsSync(CHROMIUM) ? '' : `no Chromium at ${CHROMIUM}`);
	if (unavailable) {
		report.skip('browser tests in Chromium', unavailable);
		return;
	}
	fs.rmSync(SHOTS_DIR, { recursive: true, force: true });
	fs.mkdirSync(SHOTS_DIR, { recursive: true });
	const client = new N8nClient(N8N_URL);
	await client.ownerSession(E2E_OWNER);
	await makeMostRecent(client, SANDBOX_CREDENTIAL.id);
	const operations = describedOperations();

	const { page, close } = await launchChromium(CHROMIUM);
	const editor = new Editor(page);
	try {
		const signedIn = await editor.step('editor: the owner signs in', async () => {
			await editor.signIn();
		});
		if (signedIn) {
			await freshNodeChecks(editor, operations);
			await exampleNodeChecks(editor, client);
		}
	} finally {
		await close();
	}
	for (const [what, urls] of editor.ignored) {
		console.log(
			`# ignored console errors, ${what}: ${[...urls].map((url) => url.replace(N8N_URL, '')).join(' ')}`,
		);
	}
	console.log(
		`# screenshots in ${path.relative(ROOT, SHOTS_DIR)}: ${fs.readdirSync(SHOTS_DIR).length}`,
	);
}

report.run('browser.js', main);
