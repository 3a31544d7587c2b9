export function measurePage(baseUrl: string, pagePath: string, clientDir?: string): Promise<{ path: string; files: string[]; gzipped: number }>;
