/**
 * The catalogue of checks: one entry per check the service knows, with every fact the nodes need of
 * it. Every list of checks in the nodes is derived from it (the form's choices, Submit's per node
 * version, Get Check Status's, the trigger's Checks filter, the upload categories, the subtitle,
 * the instant-check notice); none is kept by hand. A check is one entry here; a check with a public
 * submission shape also has its file in actions/verification/checks/.
 *
 * The entries' order matters where a list is not sorted by label: the instant checks and the upload
 * categories keep the order of the provider's pages.
 */

/** A node version that changed what a check list means. */
export type NodeVersion = 1 | 2;

/** The names a check's option shows in one list, where they differ from the check's own. */
interface OptionText {
	label?: string;
	what?: string;
}

/** An instant check's call of its own, in the Instant KYC resource. */
interface InstantCall {
	/** The Instant KYC operation (its value) that calls it. */
	call: string;
	/** How the instant-check notice (Verification → Submit) names the call, e.g. 'DIN'. */
	named: string;
	/**
	 * Its place in that notice's list, which keeps the order of the provider's API reference (the order
	 * of the paths in constants.ts); a call without one comes after those with one, in this catalogue's
	 * order.
	 */
	place?: number;
}

export interface Check {
	/** The service's name: the form list's and the upload category's. */
	name: string;
	/** Short label shown in the editor. */
	label: string;
	/** What it is, shown before the check name under the option. */
	what?: string;
	/** Whether a form lists it (Form → Create, version 1's Submit and Get Check Status). */
	onForm: boolean;
	/** The name Verification → Submit sends for it where it is not `name`, per node version. */
	sentAs?: Partial<Record<NodeVersion, string>>;
	/**
	 * Another name status answers and notifications give the same check (the provider's submission
	 * pages and form list disagree), with its label in the trigger's Checks filter.
	 */
	otherName?: { name: string; label: string };
	/**
	 * Where Get Check Status version 2 asks again when the service answers this check not found (and
	 * it has no other name): the police certificate under the form list's police check name.
	 */
	statusAlsoAsks?: string;
	/** Whether it is an instant check, and its Instant KYC call if it has one (`{}`: no call yet). */
	instant?: { call?: undefined } | InstantCall;
	/** Whether File → Upload takes it as a file category. */
	uploadCategory?: boolean;
	/** Example `data` for Data (JSON)'s placeholder; presumed where the public pages give none. */
	example?: object;
	/** Version 2's option where its texts differ. */
	optionV2?: OptionText;
	/** The trigger's Checks filter option where its texts differ. */
	optionInFilter?: OptionText;
}

export const POLICE_VERIFICATION = 'bgv-police-verification';
/** Submissions of the police check use this name where the form list says bgv-police-verification. */
export const POLICE_CLEARANCE_CERTIFICATE = 'bgv-police-clearance-certificate';
const LOCAL_ADDRESS_DIGITAL = 'bgv-local-address-digital';
const PERMANENT_ADDRESS_DIGITAL = 'bgv-permanent-address-digital';
/**
 * The digital address checks' names on the provider's submission pages. From the provider's public
 * documentation; the form list's names differ and which one the live service takes for a submission
 * is not settled, so version 2's list sends the submission pages' name and an expression may send the
 * form list's name as given.
 */
const LOCAL_EXTENDED_ADDRESS = 'bgv-local-extended-address';
const PERMANENT_EXTENDED_ADDRESS = 'bgv-permanent-extended-address';

/**
 * Examples for the checks that take Data (JSON), never sent by themselves. Presumed, except where the
 * provider's public documentation gives the fields (the degree, the digital addresses and the instant
 * checks' field names): the others are modelled on the checks that are known (address objects of
 * bgv-criminal, document lists of the education checks) and must be confirmed with the provider.
 * None contradicts a public field name.
 */
export const EXAMPLE_ADDRESS = {
	line1: '12 MG Road',
	vtc: 'Bengaluru',
	district: 'Bengaluru Urban',
	state: 'Karnataka',
	pincode: '560001',
	country: 'India',
};
export const exampleDocument = (label: string) => ({
	documentList: [{ label, url: 'https://…/private/…' }],
});
/** bgv-degree's public shape (level, issueDate, labels Degree and Marksheet). */
const EXAMPLE_DEGREE = {
	level: 'GRADUATE',
	nameAsPerDocument: 'Asha Verma',
	nameOfInstitute: 'Delhi University',
	registrationNumber: 'DU-2016-0421',
	issueDate: '2016-06-30',
	documentList: [
		{ label: 'Degree', url: 'https://…/private/…' },
		{ label: 'Marksheet', url: 'https://…/private/…' },
	],
};

export const CHECKS: readonly Check[] = [
	// Instant checks: calls of their own (the Instant KYC resource), in the provider's pages' order.
	{
		name: 'pan',
		label: 'PAN',
		what: 'Permanent account number',
		onForm: true,
		instant: { call: 'verifyPan', named: 'PAN', place: 1 },
		example: { pan: 'ABCDE1234F' },
	},
	{
		name: 'gst',
		label: 'GST',
		what: 'GST registration',
		onForm: true,
		instant: { call: 'verifyGst', named: 'GST', place: 4 },
		example: { gst: '29ABCDE1234F1Z5' },
	},
	{
		name: 'bank-account',
		label: 'Bank Account',
		onForm: true,
		instant: { call: 'verifyBankAccount', named: 'bank account', place: 2 },
		example: { accountNumber: '000123456789', ifsc: 'HDFC0000123', pennyLess: true },
	},
	{
		name: 'upi',
		label: 'UPI',
		what: 'UPI ID',
		onForm: true,
		instant: { call: 'verifyUpi', named: 'UPI', place: 3 },
		example: { upi: 'asha@okbank' },
	},
	{
		name: 'din',
		label: 'DIN',
		what: 'Director identification number',
		onForm: true,
		instant: { call: 'verifyDin', named: 'DIN', place: 6 },
		example: { din: '01234567' },
	},
	{
		name: 'employment-check',
		label: 'Employment (Instant)',
		what: 'Instant employment check',
		onForm: true,
		instant: { call: 'getEmploymentHistory', named: 'employment history (UAN)', place: 5 },
		example: { uan: '100123456789' },
	},
	{
		name: 'aadhaar',
		label: 'Aadhaar',
		onForm: true,
		instant: { call: 'aadhaarStart', named: 'Aadhaar (DigiLocker)', place: 7 },
		example: { aadhaarNumber: '1234 5678 9012', ...exampleDocument('aadhaar') },
	},
	{
		name: 'voter-id',
		label: 'Voter ID',
		onForm: true,
		instant: {},
		example: { voterId: 'ABC1234567', state: 'Karnataka' },
	},
	{
		name: 'cin',
		label: 'CIN',
		what: 'Company identification number',
		onForm: true,
		instant: {},
		example: { cin: 'U72200KA2010PTC012345' },
	},
	{
		name: 'dl',
		label: 'Driving Licence',
		onForm: true,
		instant: {},
		example: { dlNumber: 'KA0120160012345', dob: '17-05-1994' },
	},
	{
		name: 'face-match',
		label: 'Face Match',
		onForm: true,
		instant: {},
		example: exampleDocument('selfie'),
	},
	{
		name: 'liveness',
		label: 'Liveness',
		onForm: true,
		instant: {},
		example: exampleDocument('selfie'),
	},
	{
		name: 'passport',
		label: 'Passport',
		onForm: true,
		instant: {},
		example: { passportNumber: 'K1234567', dob: '17-05-1994' },
	},
	{
		name: 'form26as',
		label: 'Form 26AS',
		what: 'Tax credit statement',
		onForm: true,
		instant: {},
		example: { pan: 'ABCDE1234F' },
	},
	// Background checks with upload categories, in the provider's pages' order.
	{ name: 'bgv-tenth', label: '10th Education', onForm: true, uploadCategory: true },
	{ name: 'bgv-twelfth', label: '12th Education', onForm: true, uploadCategory: true },
	{
		name: 'bgv-degree',
		label: 'Degree or Marksheet',
		onForm: true,
		uploadCategory: true,
		example: EXAMPLE_DEGREE,
	},
	{ name: 'bgv-employment', label: 'Employment', onForm: true, uploadCategory: true },
	{ name: 'bgv-criminal', label: 'Criminal Court Record', onForm: true, uploadCategory: true },
	{
		name: POLICE_VERIFICATION,
		label: 'Police Verification',
		what: `Police verification at the candidate’s address. Verification → Submit version 1 sends the clearance certificate (${POLICE_CLEARANCE_CERTIFICATE}) for it`,
		onForm: true,
		// Version 1 sends the certificate for it; version 2 sends the police verification at an address.
		sentAs: { 1: POLICE_CLEARANCE_CERTIFICATE },
		uploadCategory: true,
		optionV2: {
			label: 'Police Verification (Address)',
			what: 'Police verification at the candidate’s permanent address',
		},
		optionInFilter: {
			label: 'Police Verification (Address)',
			what: `Also matches ${POLICE_CLEARANCE_CERTIFICATE}, which earlier versions submitted for it`,
		},
	},
	{
		name: POLICE_CLEARANCE_CERTIFICATE,
		label: 'Police Clearance Certificate',
		onForm: false,
		// No public sample reads the certificate; the form list names the police check only so.
		statusAlsoAsks: POLICE_VERIFICATION,
		uploadCategory: true,
		optionV2: { what: 'The candidate’s police clearance certificate, uploaded' },
	},
	{ name: 'bgv-cibil', label: 'Credit (CIBIL)', onForm: true, uploadCategory: true },
	{
		name: LOCAL_ADDRESS_DIGITAL,
		label: 'Local Address (Digital)',
		onForm: true,
		sentAs: { 2: LOCAL_EXTENDED_ADDRESS },
		otherName: { name: LOCAL_EXTENDED_ADDRESS, label: 'Local Extended Address' },
		uploadCategory: true,
		example: EXAMPLE_ADDRESS,
	},
	{
		name: 'bgv-local-address-postal',
		label: 'Local Address (Postal)',
		onForm: true,
		uploadCategory: true,
		example: { currentAddress: EXAMPLE_ADDRESS },
	},
	{
		name: PERMANENT_ADDRESS_DIGITAL,
		label: 'Permanent Address (Digital)',
		onForm: true,
		sentAs: { 2: PERMANENT_EXTENDED_ADDRESS },
		otherName: { name: PERMANENT_EXTENDED_ADDRESS, label: 'Permanent Extended Address' },
		uploadCategory: true,
		example: EXAMPLE_ADDRESS,
	},
	{
		name: 'bgv-permanent-address-postal',
		label: 'Permanent Address (Postal)',
		onForm: true,
		uploadCategory: true,
		example: { permanentAddress: EXAMPLE_ADDRESS },
	},
	// Other background checks.
	{
		name: 'bgv-degree-with-marksheet',
		label: 'Degree With Marksheet',
		onForm: true,
		example: EXAMPLE_DEGREE,
	},
	{
		name: 'bgv-global-database-check',
		label: 'Global Database',
		onForm: true,
		example: { nameAsPerDocument: 'Asha Verma', dob: '17-05-1994' },
	},
	{
		name: 'bgv-professional-reference-check',
		label: 'Professional Reference',
		onForm: true,
		example: {
			referenceName: 'R. Iyer',
			referenceMobile: '+919876543210',
			referenceEmail: 'r.iyer@example.com',
		},
	},
	{
		name: 'bgv-social-media',
		label: 'Social Media',
		onForm: true,
		example: { linkedinUrl: 'https://www.linkedin.com/in/…' },
	},
];

export function findCheck(name: string): Check | undefined {
	return CHECKS.find((check) => check.name === name);
}

/** The name Verification → Submit sends for a check on a node version. */
export function sentName(check: Check, nodeVersion: NodeVersion): string {
	return check.sentAs?.[nodeVersion] ?? check.name;
}

export interface CheckOption {
	/** Short label shown in the editor. */
	name: string;
	/** The exact check name the service takes. */
	value: string;
	/** Shown under the option: the check name sent, so the slug never clutters the label. */
	description: string;
}

function option(value: string, name: string, what?: string): CheckOption {
	return { name, value, description: `${what ? `${what}. ` : ''}Check name: ${value}` };
}

function checkOption({ name, label, what }: Check, text: OptionText = {}): CheckOption {
	return option(name, text.label ?? label, 'what' in text ? text.what : what);
}

function byName(options: CheckOption[]): CheckOption[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

const FORM_CHECKS = CHECKS.filter(({ onForm }) => onForm);

/** The check names a form accepts (exact values from the contract), sorted by label. */
export const FORM_VERIFICATION_NAMES: readonly CheckOption[] = byName(
	FORM_CHECKS.map((check) => checkOption(check)),
);

/** The check name Verification → Submit version 1 sends for a check of the form list. */
export function submissionName(name: string): string {
	const check = findCheck(name);
	return check ? sentName(check, 1) : name;
}

/** The label of a check, e.g. for canvas subtitles and messages. */
export function checkLabel(value: string): string {
	const sentFor = FORM_CHECKS.find((check) => sentName(check, 1) === value);
	const name = sentFor?.name ?? value;
	return FORM_VERIFICATION_NAMES.find((candidate) => candidate.value === name)?.name ?? name;
}

/** File → Upload's File Category values, in the provider's pages' order. */
export const FILE_CATEGORIES: readonly string[] = CHECKS.filter(
	({ uploadCategory }) => uploadCategory,
).map(({ name }) => name);

/** File → Upload's File Category list: the checks' names, sorted; the service's value is sent. */
export const FILE_CATEGORY_OPTIONS: readonly CheckOption[] = byName(
	CHECKS.filter(({ uploadCategory }) => uploadCategory).map((check) => checkOption(check)),
);

/** Check names Verification → Submit and Transaction → Get Check Status version 1 accept from expressions. */
export const SUBMITTABLE_CHECKS: readonly string[] = [
	...FORM_VERIFICATION_NAMES.map(({ value }) => value),
	...FORM_CHECKS.map((check) => sentName(check, 1)).filter((name) => !findCheck(name)?.onForm),
];

/**
 * The other name of a digital address check, both ways (Transaction → Get Check Status asks it
 * when the name asked is not found). The police checks have none: they are two different checks.
 */
export const DIGITAL_ADDRESS_OTHER_NAME: Readonly<Record<string, string>> = Object.fromEntries(
	CHECKS.flatMap(({ name, otherName }) =>
		otherName
			? [
					[name, otherName.name],
					[otherName.name, name],
				]
			: [],
	),
);

/**
 * Where Transaction → Get Check Status version 2 asks again for a check the service answers not found
 * under the name asked: a digital address under its other name (both ways), and the police clearance
 * certificate under the form list's police check name. Not the other way: Police Verification
 * (Address) is a check of its own. Version 1 keeps DIGITAL_ADDRESS_OTHER_NAME.
 */
export const CHECK_STATUS_OTHER_NAME_V2: Readonly<Record<string, string>> = {
	...DIGITAL_ADDRESS_OTHER_NAME,
	...Object.fromEntries(
		CHECKS.flatMap(({ name, statusAlsoAsks }) => (statusAlsoAsks ? [[name, statusAlsoAsks]] : [])),
	),
};

/** Checks of the form list with instant calls of their own (the Instant KYC resource). */
export const INSTANT_CHECKS: readonly string[] = FORM_CHECKS.filter(({ instant }) => instant).map(
	({ name }) => name,
);

/** A call's place in the instant-check notice; one without a place comes last (the sort is stable). */
function placeOf({ place }: InstantCall): number {
	return place ?? Number.MAX_SAFE_INTEGER;
}

/**
 * How the instant-check notice names the Instant KYC calls of the checks given, in its order: by their
 * place, then those without one in the checks' order.
 */
export function instantCallNames(checks: readonly Check[]): string[] {
	return checks
		.flatMap(({ instant }) => (instant?.call ? [instant] : []))
		.sort((one, other) => placeOf(one) - placeOf(other))
		.map(({ named }) => named);
}

/** How the instant-check notice names the catalogue's Instant KYC calls, in its order. */
export const INSTANT_CALL_NAMES: readonly string[] = instantCallNames(CHECKS);

/**
 * Version 2's Check list of Verification → Submit and Transaction → Get Check Status: each value is
 * the name Submit sends. The form list's police check is the police verification at an address;
 * the certificate is its own choice; the digital address checks carry the submission pages' names.
 */
export const CHECK_OPTIONS_V2: readonly CheckOption[] = byName(
	CHECKS.map((check) => {
		const sent = sentName(check, 2);
		if (sent === check.name) return checkOption(check, check.optionV2);
		return option(sent, check.label, `The form lists it as ${check.name}`);
	}),
);

/** Check names version 2 takes from an expression: its list and the form list's names of those it sends otherwise. */
export const SUBMITTABLE_CHECKS_V2: readonly string[] = [
	...CHECK_OPTIONS_V2.map(({ value }) => value),
	...CHECKS.filter((check) => sentName(check, 2) !== check.name).map(({ name }) => name),
];

/** The label of a check on version 2, e.g. for canvas subtitles. */
export function checkLabelV2(value: string): string {
	const found = CHECK_OPTIONS_V2.find((candidate) => candidate.value === value);
	return found?.name ?? checkLabel(value);
}

/**
 * The trigger's Checks filter: the other names a chosen check also matches. The service's public
 * pages call the digital address checks by two names; Police Verification also matches the
 * certificate, which earlier versions of Verification → Submit sent for it (saved filters keep
 * their events).
 */
export const CHECK_FILTER_ALSO_MATCHES: Readonly<Record<string, readonly string[]>> =
	Object.fromEntries(
		CHECKS.flatMap((check): Array<[string, string[]]> => {
			if (check.otherName) {
				return [
					[check.name, [check.otherName.name]],
					[check.otherName.name, [check.name]],
				];
			}
			const sentByVersion1 = sentName(check, 1);
			return sentByVersion1 === check.name ? [] : [[check.name, [sentByVersion1]]];
		}),
	);

/**
 * The trigger's Checks filter: every check name a notification may carry, sorted by label. Both
 * police checks are listed (they are different checks), and the digital address checks' other names.
 */
export const NOTIFICATION_CHECK_OPTIONS: readonly CheckOption[] = byName(
	CHECKS.flatMap((check) => [
		checkOption(check, check.optionInFilter),
		...(check.otherName
			? [
					option(
						check.otherName.name,
						check.otherName.label,
						`Another name of ${check.label}; each matches both`,
					),
				]
			: []),
	]),
);

/** The digital address checks: the form list's name → the name version 2 sends (its other name). */
export const DIGITAL_ADDRESS_SUBMISSION_NAMES: Readonly<Record<string, string>> =
	Object.fromEntries(
		CHECKS.flatMap(({ name, otherName }) => (otherName ? [[name, otherName.name]] : [])),
	);
