'use strict';

/**
 * The candidate rows and the Profile → Create mapping shared by the benchmark (bench/workflows.js) and the
 * per-item cost guard (test/perf/per-item-cost.test.ts), so both measure the same requests.
 */

/** Row i as a spreadsheet gives it. Self-contained: its source is also put into the benchmark's Code node. */
function candidateRow(i) {
	return {
		name: 'Candidate ' + i,
		gender: ['Female', 'Male', 'Other'][i % 3],
		mobile: '+9198' + String(10000000 + i),
		profession: 'Engineer',
		email: 'candidate' + i + '@example.com',
		dob: '17-05-1994',
		fatherName: 'Father ' + i,
	};
}

const ADDITIONAL_FIELDS = ['mobile', 'email', 'profession', 'dob', 'fatherName'];
const fromItem = (field) => `={{ $json.${field} }}`;

/**
 * Profile → Create with every field mapped from the item, as a user maps spreadsheet columns (or only
 * the additional fields named).
 */
function createProfileParameters(formId, additionalFields = ADDITIONAL_FIELDS) {
	return {
		resource: 'profile',
		operation: 'create',
		formId,
		name: fromItem('name'),
		gender: fromItem('gender'),
		additionalFields: Object.fromEntries(additionalFields.map((field) => [field, fromItem(field)])),
	};
}

/** Profile → Create with only name, gender and email mapped by expressions. */
const createProfileThreeFieldParameters = (formId) => createProfileParameters(formId, ['email']);

/** Profile → Create as a bulk run is set up: Mapping Mode → Map Automatically reads the row's columns. */
function createProfileAutomaticParameters(formId) {
	return { resource: 'profile', operation: 'create', formId, mappingMode: 'autoMapInputData' };
}

/** The same request body as an expression over the item (what the HTTP Request node is given). */
const CREATE_BODY_OBJECT =
	'{ name: $json.name, gender: $json.gender, mobile: $json.mobile, profession: $json.profession, email: $json.email, verificationFields: { dob: $json.dob, fatherName: $json.fatherName } }';

/**
 * The request body Profile → Create sends for a row (all 7 fields, or only name, gender and email).
 * Self-contained: its source is also put into the Code node of the leanest HTTP Request setup.
 */
function createBody(row, three) {
	if (three) return { name: row.name, gender: row.gender, email: row.email };
	return {
		name: row.name,
		gender: row.gender,
		mobile: row.mobile,
		profession: row.profession,
		email: row.email,
		verificationFields: { dob: row.dob, fatherName: row.fatherName },
	};
}

const createProfilePath = (formId) => `/verification/api/1.0/ekyc-forms/${formId}/diy-candidate`;

module.exports = {
	candidateRow,
	createProfileParameters,
	createProfileAutomaticParameters,
	createProfileThreeFieldParameters,
	createBody,
	CREATE_BODY_OBJECT,
	createProfilePath,
};
