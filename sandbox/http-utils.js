'use strict';

const { Readable } = require('node:stream');

const { fileSize } = require('./file-store');

/** Handlers return plain reply descriptions; writeReply turns them into HTTP responses. */
const reply = {
	success: (data) => ({
		status: 200,
		body: data === undefined ? { code: 0, message: 'Success' } : { code: 0, message: 'Success', data },
	}),
	// The real service answers validation failures with code -1 under HTTP 200.
	invalid: (problems) => ({ status: 200, body: { code: -1, message: problems.join('/') } }),
	failure: (status, message) => ({ status, body: { code: -1, message } }),
	json: (body, status = 200) => ({ status, body }),
	html: (status, html) => ({ status, html }),
	file: (file) => ({ status: 200, file }),
};

function contentDispositionFor(filename) {
	return `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`;
}

function writeReply(res, { status, body, html, file }) {
	if (file) {
		res.writeHead(status, {
			'content-type': file.contentType,
			'content-disposition': contentDispositionFor(file.filename),
			'content-length': fileSize(file),
		});
		(file.stream ? file.stream() : Readable.from([file.data])).pipe(res);
		return;
	}
	const [contentType, payload] = html !== undefined ? ['text/html', html] : ['application/json', JSON.stringify(body)];
	res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
	res.end(payload);
}

/** Buffers the request body; bytes past the limit are drained and dropped, and tooLarge is set. */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
		});
		req.on('end', () => resolve({ buffer: Buffer.concat(chunks), tooLarge: size > limit }));
		req.on('error', reject);
	});
}

module.exports = { reply, writeReply, readBody };
