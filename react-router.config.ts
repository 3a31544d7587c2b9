import type { Config } from "@react-router/dev/config";

export default {
  // Every public page is rendered on the server: Google and WhatsApp's crawler read HTML, not JS.
  ssr: true,
  future: {
    // Split route modules so a page downloads its component without its client-only helpers.
    v8_splitRouteModules: true,
    v8_middleware: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
