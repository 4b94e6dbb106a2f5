import { resourceOf } from '../../helpers/descriptions';
import * as resolveInsufficiency from './resolveInsufficiency.operation';
import * as submit from './submit.operation';

/** Its name in the Resource selector, its operations in the selector's order, and its fields. */
export const { displayName, operations, description } = resourceOf('verification', 'Verification', {
	submit,
	resolveInsufficiency,
});
