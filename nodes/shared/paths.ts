/** The path with its `:name` placeholders filled (each value URL-encoded): the action node and the trigger. */
export function fillPath(path: string, parameters: Record<string, string> = {}): string {
	return path.replace(/:([A-Za-z]+)/g, (placeholder, name: string) =>
		name in parameters ? encodeURIComponent(parameters[name]) : placeholder,
	);
}
