'use strict';

const { SIGNED_URL_LIFETIME_MINUTES } = require('./constants');
const { randomHex } = require('./ids');

const LIFETIME_MS = SIGNED_URL_LIFETIME_MINUTES * 60 * 1000;
const PRIVATE_PATH = /^\/private-files\/([0-9a-f]+)\/([^/]+)$/;

function safeFilename(name) {
	const base = String(name || '')
		.split(/[\\/]/)
		.pop()
		.replace(/[^\w.\- ]/g, '_')
		.trim();
	return base || 'upload';
}

/**
 * Private files, download tokens and signed URLs, kept in the sandbox state maps.
 * Tokens and signed URLs both live SIGNED_URL_LIFETIME_MINUTES from issue, by the injected clock.
 */
function createFileStore({ state, clock, getBaseUrl }) {
	const isAlive = (entry) => clock.now().getTime() < entry.expiresAt.getTime();
	const expiryFromNow = () => new Date(clock.now().getTime() + LIFETIME_MS);

	function add({ filename, contentType, data, source }) {
		const file = {
			id: randomHex(12),
			filename: safeFilename(filename),
			contentType,
			data,
			source,
			createdAt: clock.now().toISOString(),
		};
		state.files.set(file.id, file);
		return file;
	}

	function privateUrl(file) {
		const baseUrl = getBaseUrl();
		return baseUrl && `${baseUrl}/private-files/${file.id}/${encodeURIComponent(file.filename)}`;
	}

	/** Matches on the path only, so URLs issued under publicBaseUrl or the listening address both work. */
	function findByPrivateUrl(url) {
		let pathname;
		try {
			pathname = new URL(url).pathname;
		} catch {
			return undefined;
		}
		const match = PRIVATE_PATH.exec(pathname);
		const file = match && state.files.get(match[1]);
		return file && encodeURIComponent(file.filename) === match[2] ? file : undefined;
	}

	function issueDownloadToken(file) {
		const token = randomHex(24);
		state.downloadTokens.set(token, { token, fileId: file.id, expiresAt: expiryFromNow() });
		return token;
	}

	/** Returns a fresh signed URL, or undefined when the token is unknown or expired. Tokens are reusable until expiry. */
	function signedUrlForToken(token) {
		const entry = state.downloadTokens.get(token);
		if (!entry || !isAlive(entry)) return undefined;
		const id = randomHex(24);
		state.signedUrls.set(id, { id, fileId: entry.fileId, expiresAt: expiryFromNow() });
		return `${getBaseUrl()}/signed-files/${id}`;
	}

	/** { file, expired } for a known signed id, undefined otherwise. */
	function resolveSignedId(id) {
		const entry = state.signedUrls.get(id);
		return entry && { file: state.files.get(entry.fileId), expired: !isAlive(entry) };
	}

	function describe(file) {
		const { data, ...meta } = file;
		return { ...meta, size: data.length, url: privateUrl(file) };
	}

	const get = (id) => state.files.get(id);

	return { add, get, privateUrl, findByPrivateUrl, issueDownloadToken, signedUrlForToken, resolveSignedId, describe };
}

module.exports = { createFileStore };
