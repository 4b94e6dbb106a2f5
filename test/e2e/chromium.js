'use strict';

/**
 * Debian's Chromium through playwright-core, as the browser suites use it (browser.js, docs-images.js):
 * headless with a new empty profile, without the background connections that a closed network refuses,
 * and the owner's sign-in to n8n's editor.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];

/** Starts Chromium with a throw-away profile; returns its page and a close() that removes the profile. */
async function launchChromium(executablePath, options = {}) {
	const { chromium } = require('playwright-core');
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-e2e-chromium-'));
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath,
		headless: true,
		viewport: { width: 1440, height: 900 },
		args: CHROMIUM_FLAGS,
		...options,
	});
	const close = async () => {
		await context.close().catch(() => {});
		fs.rmSync(userDataDir, { recursive: true, force: true });
	};
	return { page: context.pages()[0] || (await context.newPage()), close };
}

/** Signs in to n8n's editor at baseUrl with the owner's e-mail and password. */
async function signIn(page, baseUrl, { email, password }) {
	await page.goto(`${baseUrl}/signin`, { waitUntil: 'domcontentloaded' });
	await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(email);
	await page.locator('input[type="password"]').first().fill(password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
}

module.exports = { launchChromium, signIn };
