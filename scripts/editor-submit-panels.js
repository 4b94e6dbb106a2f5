'use strict';

/**
 * The version 2 Submit panel in a running n8n's editor (scripts/editor-submit-panels.sh runs it):
 *   node scripts/editor-submit-panels.js --workflow            the workflow to import (stdout)
 *   node scripts/editor-submit-panels.js --read                CV_N8N_URL, CV_CHROMIUM, CV_PANELS_DIR:
 *        signs in (the owner is set up first), opens each node and reads its parameters' labels, in
 *        order, from the DOM (notices as "notice: <text>"); writes panels.json and <check>.png (the
 *        Parameters column, under 200 KB) into CV_PANELS_DIR
 *   node scripts/editor-submit-panels.js --compare <dir> <dir> the two panels.json, check by check
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

// One typed check (its own fields), one untyped (Data (JSON)), the police verification at an
// address, a digital address check (the name the Check list offers), and the police clearance
// certificate.
const CHECKS = [
	'bgv-employment',
	'bgv-global-database-check',
	'bgv-police-verification',
	'bgv-local-extended-address',
	'bgv-police-clearance-certificate',
];
// Values that open a collection, so that its fields show (as in examples/candidates-to-reports.json).
const VALUES = {
	'bgv-police-verification': { permanentAddress: { address: { line1: 'Line 1' } } },
};
const WORKFLOW_ID = 'cvEditorPanels01';
const LIMIT = 200 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function workflow() {
	return {
		id: WORKFLOW_ID,
		name: 'Version 2 Submit panels',
		active: false,
		settings: {},
		connections: {},
		nodes: CHECKS.map((check, index) => ({
			parameters: {
				resource: 'verification',
				operation: 'submit',
				verificationName: check,
				...VALUES[check],
			},
			id: `00000000-0000-4000-8000-00000000000${index}`,
			name: check,
			type: 'n8n-nodes-candidate-verification.candidateVerification',
			typeVersion: 2,
			position: [index * 240, 0],
			credentials: {
				candidateVerificationApi: {
					id: 'cvCredential0001',
					name: 'Candidate Verification account',
				},
			},
		})),
	};
}

/**
 * In the page: the panel's fields in document order, nested ones included: each visible label
 * (its title and the parameter it labels, `for`), and each visible notice (its text).
 */
function readFields(parameters) {
	const visible = (element) =>
		element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
	const text = (element) => element.textContent.replace(/\s+/g, ' ').trim();
	const fields = [];
	for (const element of parameters.querySelectorAll(
		'label.n8n-input-label, [role="alert"], [class*="_notice_"]',
	)) {
		if (!visible(element)) continue;
		if (element.matches('label')) {
			const title = element.querySelector('[class*="_title_"]') || element;
			const name = element.getAttribute('for');
			fields.push(name ? `${text(title)} [${name}]` : text(title));
			continue;
		}
		// A notice matched twice (its role and its class) is counted once.
		if (element.parentElement.closest('[role="alert"], [class*="_notice_"]')) continue;
		fields.push(`notice: ${text(element)}`);
	}
	return fields;
}

async function read() {
	const { launchChromium, signIn } = require('../test/e2e/chromium');
	const { N8nClient } = require('../test/e2e/n8n-client');
	const { E2E_OWNER } = require('../test/e2e/package-under-test');
	const url = process.env.CV_N8N_URL;
	const out = process.env.CV_PANELS_DIR;
	assert.ok(url && out, 'CV_N8N_URL and CV_PANELS_DIR are needed');
	const n8n = new N8nClient(url);
	await n8n.ownerSession(E2E_OWNER);
	const settings = await n8n.rest('GET', '/settings');
	const { page, close } = await launchChromium(process.env.CV_CHROMIUM || '/usr/bin/chromium', {
		deviceScaleFactor: 1,
		colorScheme: 'light',
		viewport: { width: 1440, height: 1600 },
	});
	const result = { n8n: settings.versionCli, panels: {} };
	try {
		await signIn(page, url, E2E_OWNER);
		await page.goto(`${url}/workflow/${WORKFLOW_ID}`, { waitUntil: 'domcontentloaded' });
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
		await sleep(1500);
		for (const check of CHECKS) {
			await page
				.locator('[data-test-id="canvas-node"]')
				.filter({ hasText: check })
				.first()
				.dblclick();
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.waitFor({ timeout: 30_000 });
			await sleep(2000);
			await page.mouse.move(1, 1);
			const parameters = ndv.locator('[data-test-id="node-parameters"]');
			if (process.env.CV_PANELS_DEBUG)
				fs.writeFileSync(path.join(out, `${check}.html`), await parameters.innerHTML());
			const fields = await parameters.evaluate(readFields);
			const shown = await ndv
				.locator('[data-test-id="parameter-input-verificationName"] input')
				.first()
				.inputValue({ timeout: 5000 })
				.catch(() => '(no Check field)');
			const clip = await parameters.evaluate((element) => {
				let pane = element;
				while (pane.parentElement && !pane.querySelector('[data-test-id="tab-params"]'))
					pane = pane.parentElement;
				const box = pane.getBoundingClientRect();
				const items = [...element.querySelectorAll('[data-test-id="parameter-item"]')];
				const bottom = Math.max(...items.map((item) => item.getBoundingClientRect().bottom));
				return {
					x: box.x,
					y: box.y,
					width: box.width,
					height: Math.min(box.bottom, bottom + 24) - box.y,
				};
			});
			const file = path.join(out, `${check}.png`);
			await page.screenshot({ path: file, clip });
			const bytes = fs.statSync(file).size;
			assert.ok(bytes < LIMIT, `${check}.png has ${Math.round(bytes / 1024)} KB`);
			result.panels[check] = { checkShown: shown, fields };
			console.log(`${check} (Check shows "${shown}"): ${fields.length} fields`);
			for (const field of fields) console.log(`  ${field}`);
			// n8n 1.x names the panel's close button back-to-canvas, 2.x ndv-close-button.
			await ndv
				.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
				.first()
				.click({ timeout: 5000 })
				.catch(() => page.keyboard.press('Escape'));
			await ndv.waitFor({ state: 'hidden' });
		}
	} catch (error) {
		await page.screenshot({ path: path.join(out, 'failed.png') }).catch(() => {});
		throw error;
	} finally {
		await close();
	}
	fs.writeFileSync(path.join(out, 'panels.json'), `${JSON.stringify(result, null, 2)}\n`);
}

function compare(a, b) {
	const [left, right] = [a, b].map((dir) =>
		JSON.parse(fs.readFileSync(path.join(dir, 'panels.json'), 'utf8')),
	);
	let differing = 0;
	for (const check of CHECKS) {
		const [x, y] = [left, right].map((side) => side.panels[check]);
		const equal = JSON.stringify(x) === JSON.stringify(y);
		if (!equal) differing += 1;
		console.log(
			`${check}: ${x.fields.length} vs ${y.fields.length} fields, ${equal ? 'equal' : 'DIFFERENT'}`,
		);
		if (!equal) console.log(`  ${JSON.stringify(x)}\n  ${JSON.stringify(y)}`);
	}
	console.log(`n8n ${left.n8n} vs ${right.n8n}: ${CHECKS.length} panels, ${differing} differing`);
	process.exitCode = differing ? 1 : 0;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === '--workflow') process.stdout.write(`${JSON.stringify(workflow(), null, 2)}\n`);
else if (mode === '--read')
	read().catch((error) => {
		console.error(error);
		process.exit(1);
	});
else if (mode === '--compare') compare(...rest);
else {
	console.error('usage: editor-submit-panels.js --workflow | --read | --compare <dir> <dir>');
	process.exit(2);
}
