'use strict';

/**
 * The README's pictures, from the real editor: Debian Chromium driven by playwright-core against an
 * n8n where the examples are imported and have run (scripts/docs-images.sh for `npm run docs:images`,
 * which writes docs/images/; test/e2e/run.sh, which writes them into its run folder so the command
 * cannot rot). Light theme, cropped to what matters (the workflow's nodes, the node panel, the
 * credential dialog), each under 200 KB. Every picture is one `ok - ` / `FAIL - ` line; one
 * `skip - ` line when there is no Chromium.
 *
 * Environment: CV_N8N_URL, CV_DOCS_IMAGES_DIR (where the PNGs go), CV_CHROMIUM, CV_CHROMIUM_SKIP.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { launchChromium, signIn } = require('./chromium');
const { E2E_OWNER } = require('./package-under-test');
const { createReport } = require('./report');

const N8N_URL = process.env.CV_N8N_URL;
const OUT = process.env.CV_DOCS_IMAGES_DIR;
const CHROMIUM = process.env.CV_CHROMIUM || '/usr/bin/chromium';
const LIMIT = 200 * 1024;
// Floating editor chrome that would sit on top of a cropped picture.
const HIDDEN = [
	'.el-notification',
	'[data-test-id="canvas-controls"]',
	'[data-test-id="canvas-minimap"]',
	'[data-test-id="execute-workflow-button"]',
	'[data-test-id="canvas-node-toolbar"]',
	'[data-test-id="logs-panel"]',
	'[data-test-id="ask-assistant-floating-button"]',
	'[data-test-id="node-creator-plus-button"]',
	'[data-test-id="command-bar-button"]',
	'[data-test-id="add-sticky-button"]',
	'[data-test-id="toggle-focus-panel-button"]',
	'[data-test-id="instance-ai-canvas-action-button"]',
];

const report = createReport();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Shots {
	constructor(page) {
		this.page = page;
	}

	async hideChrome() {
		await this.page.addStyleTag({ content: `${HIDDEN.join(', ')} { display: none !important; }` });
	}

	async openWorkflow(id) {
		const { page } = this;
		await page.goto(`${N8N_URL}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
		await this.closeSuggestedActions();
		await this.hideChrome();
		await this.fit();
	}

	/**
	 * n8n 2.41 opens its production checklist ("Enable MCP access") over the canvas of a published
	 * workflow, a moment after it loads: closed, as a person would, when it shows within 3 s.
	 */
	async closeSuggestedActions() {
		const close = this.page.locator('[data-test-id="suggested-actions-close"]').first();
		const shown = await close
			.waitFor({ state: 'visible', timeout: 3000 })
			.then(() => true)
			.catch(() => false);
		if (shown) await close.click();
	}

	async fit() {
		await this.page.locator('[data-test-id="zoom-to-fit"]').dispatchEvent('click');
		await this.page.mouse.move(1, 1);
		await sleep(800);
	}

	async run() {
		const { page } = this;
		await page.addStyleTag({
			content: '[data-test-id="execute-workflow-button"] { display: inline-flex !important; }',
		});
		await page.locator('[data-test-id="execute-workflow-button"]').dispatchEvent('click');
		// Finished when no node is running any more and at least one shows its result.
		await page
			.locator('[data-test-id="canvas-node"] [data-test-id="canvas-node-status-success"]')
			.first()
			.waitFor({ timeout: 60_000 });
		await page.waitForFunction(
			() =>
				!document.querySelector(
					'[data-test-id="canvas-node"] .running, [data-test-id="canvas-node-status-running"]',
				),
			null,
			{ timeout: 60_000 },
		);
		await this.hideChrome();
		await this.fit();
	}

	async openNode(name) {
		const { page } = this;
		await page.locator('[data-test-id="canvas-node"]').filter({ hasText: name }).first().dblclick();
		await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 30_000 });
		await sleep(1500);
		await page.mouse.move(1, 1);
	}

	async closeNode() {
		await this.page.locator('[data-test-id="ndv-close-button"]').first().click();
		await this.page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
	}

	/** The nodes and sticky notes of the canvas (with their labels and handles), with a margin. */
	async canvasClip() {
		const boxes = await this.page
			.locator('.vue-flow__node, [data-test-id="edge-label"]')
			.evaluateAll((nodes) =>
				nodes.flatMap((node) =>
					// The node's box, and the texts that overflow it (labels, subtitles, branch names).
					[
						node,
						...[...node.querySelectorAll('*')].filter((element) =>
							[...element.childNodes].some(
								(child) => child.nodeType === 3 && child.textContent.trim(),
							),
						),
					]
						.filter((element) =>
							element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
						)
						.map((element) => element.getBoundingClientRect())
						.filter((box) => box.width > 0 && box.height > 0)
						.map(({ x, y, right, bottom }) => ({ x, y, right, bottom })),
				),
			);
		const canvas = await this.page.locator('[data-test-id="canvas"]').boundingBox();
		const margin = 16;
		const x = Math.max(canvas.x, Math.min(...boxes.map((b) => b.x)) - margin);
		const y = Math.max(canvas.y, Math.min(...boxes.map((b) => b.y)) - margin);
		const right = Math.min(
			canvas.x + canvas.width,
			Math.max(...boxes.map((b) => b.right)) + margin,
		);
		const bottom = Math.min(
			canvas.y + canvas.height,
			Math.max(...boxes.map((b) => b.bottom)) + margin,
		);
		return { x, y, width: right - x, height: bottom - y };
	}

	/**
	 * The node panel's middle column (Parameters), from its tabs to its last parameter: the panel
	 * without the empty input and output columns around it.
	 */
	async parametersClip() {
		return this.page.locator('[data-test-id="node-parameters"]').evaluate((parameters) => {
			let pane = parameters;
			while (pane.parentElement && !pane.querySelector('[data-test-id="tab-params"]'))
				pane = pane.parentElement;
			const box = pane.getBoundingClientRect();
			const items = [
				...parameters.querySelectorAll(
					'[data-test-id="parameter-item"], [data-test-id="node-credentials-slot"]',
				),
			];
			const bottom = Math.max(...items.map((item) => item.getBoundingClientRect().bottom));
			return {
				x: box.x,
				y: box.y,
				width: box.width,
				height: Math.min(box.bottom, bottom + 24) - box.y,
			};
		});
	}

	/** The node panel, down to the lowest text of its three columns (no empty space below). */
	async ndvClip() {
		return this.page.locator('[data-test-id="ndv"]').evaluate((ndv) => {
			const box = ndv.getBoundingClientRect();
			const texts = [...ndv.querySelectorAll('*')].filter(
				(element) =>
					!element.closest('[data-test-id="node-feature-request"]') &&
					[...element.childNodes].some(
						(child) => child.nodeType === 3 && child.textContent.trim(),
					) &&
					element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
			);
			const bottom = Math.max(...texts.map((element) => element.getBoundingClientRect().bottom));
			return {
				x: box.x,
				y: box.y,
				width: box.width,
				height: Math.min(box.bottom, bottom + 32) - box.y,
			};
		});
	}

	/** The output panel from its header down to `last` (a locator inside it). */
	async outputClip(last) {
		const panel = await this.page.locator('[data-test-id="output-panel"]').boundingBox();
		const end = await last.boundingBox();
		return {
			x: panel.x,
			y: panel.y,
			width: panel.width,
			height: end.y + end.height + 24 - panel.y,
		};
	}

	clip(name, clip) {
		return this.save(name, (file) => this.page.screenshot({ path: file, clip }));
	}

	/** Writes the picture and checks it: a PNG under 200 KB. */
	async save(name, take) {
		const file = path.join(OUT, name);
		await take(file);
		const bytes = fs.statSync(file).size;
		assert.ok(bytes < LIMIT, `${name} has ${Math.round(bytes / 1024)} KB (limit 200 KB)`);
		return `${name}, ${Math.round(bytes / 1024)} KB`;
	}

	canvas(name) {
		return this.save(name, async (file) => {
			if (process.env.CV_DOCS_DEBUG) await this.page.screenshot({ path: `${file}.full.png` });
			const clip = await this.canvasClip();
			if (process.env.CV_DOCS_DEBUG) console.log('# clip', JSON.stringify(clip));
			return this.page.screenshot({ path: file, clip });
		});
	}

	element(name, locator) {
		return this.save(name, (file) => locator.screenshot({ path: file }));
	}
}

async function main() {
	const unavailable =
		process.env.CV_CHROMIUM_SKIP || (fs.existsSync(CHROMIUM) ? '' : `no Chromium at ${CHROMIUM}`);
	if (unavailable) {
		report.skip('docs pictures in Chromium', unavailable);
		return;
	}
	assert.ok(OUT, 'CV_DOCS_IMAGES_DIR is not set');
	fs.mkdirSync(OUT, { recursive: true });
	for (const name of fs.readdirSync(OUT).filter((file) => file.endsWith('.png')))
		fs.rmSync(path.join(OUT, name));

	const { page, close } = await launchChromium(CHROMIUM, {
		deviceScaleFactor: 1,
		colorScheme: 'light',
	});
	const shots = new Shots(page);
	const step = (name, fn) =>
		report.step(`picture: ${name}`, async () => {
			try {
				return await fn();
			} catch (error) {
				await page
					.screenshot({ path: path.join(OUT, '..', `failed-docs-image.png`) })
					.catch(() => {});
				await page.keyboard.press('Escape').catch(() => {});
				throw error;
			}
		});
	try {
		if (!(await step('the owner signs in', () => signIn(page, N8N_URL, E2E_OWNER)))) return;

		await step('the sheet-rows example on the canvas', async () => {
			await shots.openWorkflow('cvExampleSheetRows');
			return shots.canvas('sheet-rows-workflow.png');
		});
		await step(
			"the example's run: Create Profile with Map Automatically, the rows in, the transaction IDs out",
			async () => {
				await shots.run();
				await shots.openNode('Create Profile');
				const mode = await page
					.locator('[data-test-id="parameter-input-mappingMode"] input')
					.first()
					.inputValue();
				assert.equal(mode, 'Map Automatically');
				await shots.hideChrome();
				return shots.clip('profile-create-run.png', await shots.ndvClip());
			},
		);
		await step('the credential dialog', async () => {
			await page.locator('[data-test-id="credential-edit-button"]').first().click();
			const dialog = page.locator('[data-test-id="editCredential-modal"]');
			await dialog.waitFor({ timeout: 30_000 });
			await sleep(1000);
			await shots.hideChrome();
			const shot = await shots.element('credential.png', dialog);
			await dialog
				.locator(
					'[data-test-id="credential-edit-dialog"] button[aria-label="Close"], .el-dialog__headerbtn',
				)
				.first()
				.click()
				.catch(() => page.keyboard.press('Escape'));
			await dialog.waitFor({ state: 'hidden' });
			if (await page.locator('[data-test-id="ndv"]').isVisible()) await shots.closeNode();
			return shot;
		});
		await step('the completed-report-to-HR example on the canvas', async () => {
			await shots.openWorkflow('cvExampleReportToHr');
			return shots.canvas('report-to-hr-workflow.png');
		});
		await step("the trigger's panel (filters, activation)", async () => {
			await shots.openNode('Check Completed');
			const shot = await shots.clip('trigger-panel.png', await shots.parametersClip());
			await shots.closeNode();
			return shot;
		});
		await step(
			'the sweep example after a run (the completed transaction gets its report)',
			async () => {
				await shots.openWorkflow('cvExampleSweep');
				await shots.run();
				return shots.canvas('sweep-run.png');
			},
		);
		// The examples ran against the sandbox's current pages: a report per check (examples-check.js).
		await step("Download Check Report's output: the report as a binary file", async () => {
			await shots.openNode('Download Check Report');
			await shots.hideChrome();
			const shot = await shots.clip(
				'download-report-output.png',
				await shots.outputClip(
					page
						.locator('[data-test-id="output-panel"]')
						.getByRole('button', { name: 'Download' })
						.first(),
				),
			);
			await shots.closeNode();
			return shot;
		});
	} finally {
		await close();
	}
}

report.run('docs-images.js', main);
