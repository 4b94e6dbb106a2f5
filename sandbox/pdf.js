'use strict';

/** Builds a small but valid one-page PDF (Helvetica text lines) with a correct xref table. */
function buildPdf(lines) {
	const escapeText = (text) =>
		String(text)
			.replace(/[^\x20-\x7e]/g, '?')
			.replace(/[\\()]/g, '\\$&');
	const content = ['BT', '/F1 12 Tf', '14 TL', '72 760 Td', ...lines.map((line) => `(${escapeText(line)}) '`), 'ET'].join(
		'\n',
	);
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
		`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];

	let pdf = '%PDF-1.4\n';
	const offsets = objects.map((body, index) => {
		const offset = Buffer.byteLength(pdf, 'latin1');
		pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
		return offset;
	});
	const xrefOffset = Buffer.byteLength(pdf, 'latin1');
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}

module.exports = { buildPdf };
