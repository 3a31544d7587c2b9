// The part of autocannon's API the bench uses (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; total: number };
  export type Result = {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "2xx": number;
    "4xx": number;
    "5xx": number;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string }[];
  };
  export type Instance = {
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
    stop(): void;
  };
  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
