import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import type { RefusalExplanation, ServiceEnvelope } from '../../shared/transport/errors';
import type { ProtectionDeclaration } from './duplicateProtection/declaration';
import type { ItemInput } from './itemInput';
import type { PreparedRequest } from './prepared';

export type { PreparedRequest, ServiceRead } from './prepared';
export type { FormerRowConfirmation } from './duplicateProtection/declaration';

/**
 * A request the live service may take in either of two shapes: the contract's (the operation's
 * declared body) or the provider's current public page's (e.g. Create Profile's date of birth,
 * nested in `verificationFields` by the contract, top level on the current page). Which one the
 * service takes is learned, without the user choosing, once per credential, base URL and process
 * (requestShapes.ts).
 */
export interface OtherShape {
	/** The item's body in the other shape; undefined when both shapes are the same for this item. */
	body(prepared: PreparedRequest): IDataObject | undefined;
	/**
	 * Whether a refusal rejects the shape of the body sent itself (e.g. "property verificationFields
	 * should not exist"), never a value in it: only such a refusal makes the other shape tried.
	 */
	refusesShape(problems: string[], sent: IDataObject): boolean;
	/** Whether a refusal names a field the two shapes place apart (e.g. "fatherName must …"). */
	namesShapeFields(problems: string[]): boolean;
	/** How errors name the declared and the other shape, e.g. "top level (the provider’s current page)". */
	labels: { declared: string; other: string };
}

/** One item on its way to the service, as the operation's hooks see it. */
export interface ItemCall {
	itemIndex: number;
	/** The node, read once per run (n8n's getNode() copies it at every call). */
	node: INode;
	item: INodeExecutionData;
	prepared: PreparedRequest;
	/** The request about to be sent; a hook may change its body or query. */
	request: IHttpRequestOptions;
	credentials: ICredentialDataDecryptedObject;
	/** Another request to the service with the run's credential and settings (e.g. a first step). */
	callService(
		label: string,
		request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body' | 'qs'>,
	): Promise<ServiceEnvelope>;
}

/** Turns the envelope's data into the output JSON of one input item. */
export type OutputShaper = (
	data: IDataObject,
	prepared: PreparedRequest,
) => IDataObject | IDataObject[];

/**
 * For answers the operation reads itself (a file, binary data inside the envelope, its own
 * explanation of a rejection): the output items of one input item.
 */
export type ResponseReader = (
	this: IExecuteFunctions,
	response: IN8nHttpFullResponse,
	call: ItemCall,
) => Promise<INodeExecutionData[]>;

/**
 * One operation, declared: the engine (`runOperation`) checks every item with `build`, sends
 * `method` + `path` for each valid one and shapes the answer with `output`.
 */
export interface OperationDefinition {
	/** How errors name the operation: its action name, e.g. "Add a candidate to a form". */
	label: string;
	method: IHttpRequestMethods;
	/** `:name` placeholders are filled from the checked item's pathParameters. */
	path: string;
	/**
	 * Offers Mapping Mode (engine/mapping.ts): Map Automatically reads the operation's mapped fields
	 * from the item's columns of their names. The Mapping Mode field is shown for the operations that
	 * declare it (helpers/descriptions.ts, mappingModeFor).
	 */
	mappingMode?: true;
	/** Checks and normalises one item; records problems on `input` instead of throwing. */
	build(input: ItemInput): PreparedRequest;
	/** Per-item work after the check that needs I/O (reading a file, a first request). */
	beforeSend?(this: IExecuteFunctions, call: ItemCall): Promise<void>;
	output:
		| OutputShaper
		| {
				read: ResponseReader;
				requestOptions: Partial<IHttpRequestOptions>;
				/**
				 * Redirects of the operation's request are followed (see transport/redirects.ts): to the
				 * service's origin with the key, elsewhere without it, never from https to http.
				 */
				followRedirects?: true;
		  };
	/**
	 * For operations that create or change something at the service: the output field holding the ID
	 * it returned (also the field of the answer's data). Such an item is never sent twice in one
	 * execution, and an answer that may have been lost (timeout, reset) is not retried.
	 */
	acceptedIdField?: string;
	/**
	 * Creates something (a charge, an invitation): rows sent by earlier executions are not sent again,
	 * as the operation declares its rows (duplicateProtection/declaration.ts).
	 */
	duplicateProtection?: ProtectionDeclaration;
	/**
	 * The service may take the body in another shape too (the provider's current page beside the
	 * contract): the shape it takes is learned once per credential and process (engine/requestShapes.ts).
	 */
	otherShape?: OtherShape;
	/**
	 * A refusal the operation can say more of (e.g. a field the service requires that the node does
	 * not): what was wrong, naming the node's field, and what to do; undefined to keep the service's words.
	 */
	explainRefusal?(
		problems: string[],
		prepared: PreparedRequest,
		itemIndex: number,
	): RefusalExplanation | undefined;
	/**
	 * Each call is billed by the provider (an instant check, whose answer is the result): as for a
	 * create, a request that may have reached the service (a timeout, a reset, a 502 or 504) is not
	 * tried again, and n8n's Retry On Fail does not call again, within the execution, an item answered
	 * or without a clear answer (AcceptedMemory). Nothing is recorded across executions (no record could
	 * give the answer back): a new execution calls, and is billed, again.
	 */
	billedPerCall?: true;
	/**
	 * For a billed call: what a flow branches on in one answer (e.g. valid, reason, the name returned),
	 * listed per answered item when a run stops, so no answer bought is lost with it.
	 */
	summary?(json: IDataObject): IDataObject;
	/**
	 * Answers besides the service's envelope with a failure code after which the service certainly did
	 * not act (e.g. Instant KYC's 4xx `{ message }` with no code): a failure, not an answer in doubt.
	 */
	refused?(response: Pick<IN8nHttpFullResponse, 'statusCode' | 'body'>): boolean;
}
