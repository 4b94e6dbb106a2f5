// n8n-core reads its instance settings from N8N_USER_FOLDER: give every test run a throw-away one.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

if (!process.env.CV_TEST_USER_FOLDER) {
	process.env.CV_TEST_USER_FOLDER = mkdtempSync(join(tmpdir(), 'cv-n8n-test-'));
}
process.env.N8N_USER_FOLDER = process.env.CV_TEST_USER_FOLDER;
process.env.N8N_LOG_LEVEL = 'silent';
