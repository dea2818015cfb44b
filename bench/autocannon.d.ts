// The part of autocannon's API that bench/load.ts uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      // autocannon passes the per-connection context through untyped
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      overallRate?: number;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      total: number;
      max: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      statusCodeStats?: Record<string, { count: number }>;
      errors: number;
      timeouts: number;
      duration: number;
    }
  }
  function autocannon(options: autocannon.Options, callback: (err: Error | null, result: autocannon.Result) => void): unknown;
  export default autocannon;
}
