'use strict';

/** Minimal multipart/form-data parser working on the whole buffered body. */

function boundaryFrom(contentType) {
	if (!/^multipart\/form-data/i.test(contentType || '')) return undefined;
	const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return match ? match[1] || match[2] : undefined;
}

function parseHeaderParams(value) {
	const params = {};
	for (const match of value.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g)) {
		params[match[1].toLowerCase()] = match[2] !== undefined ? match[2] : match[3].trim();
	}
	return params;
}

function parsePart(raw) {
	const headerEnd = raw.indexOf('\r\n\r\n');
	if (headerEnd === -1) return undefined;
	const headers = {};
	for (const line of raw.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	const disposition = parseHeaderParams(headers['content-disposition'] || '');
	if (disposition.name === undefined) return undefined;
	return {
		field: disposition.name,
		filename: disposition.filename,
		contentType: headers['content-type'],
		data: raw.subarray(headerEnd + 4),
	};
}

/** Returns [{ field, filename?, contentType?, data: Buffer }] or [] when the body is not multipart. */
function parseMultipart(body, contentType) {
	const boundary = boundaryFrom(contentType);
	if (!boundary) return [];
	const delimiter = Buffer.from(`--${boundary}`);
	const separator = Buffer.from(`\r\n--${boundary}`);
	const parts = [];
	let position = body.indexOf(delimiter);
	if (position === -1) return parts;
	position += delimiter.length;
	while (body.subarray(position, position + 2).toString() !== '--') {
		if (body[position] === 0x0d && body[position + 1] === 0x0a) position += 2;
		const next = body.indexOf(separator, position);
		if (next === -1) break;
		const part = parsePart(body.subarray(position, next));
		if (part) parts.push(part);
		position = next + separator.length;
	}
	return parts;
}

/** What the request log keeps of a multipart body (file contents are left out). */
function summarizeMultipart(parts) {
	const fields = {};
	const files = [];
	for (const part of parts) {
		if (part.filename === undefined) fields[part.field] = part.data.toString('utf8');
		else files.push({ field: part.field, filename: part.filename, contentType: part.contentType, size: part.data.length });
	}
	return { fields, files };
}

module.exports = { parseMultipart, summarizeMultipart };
