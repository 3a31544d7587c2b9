import { loadBrokerProfile } from "~/features/settings/settings.server";
import { whatsappRedirect } from "~/features/whatsapp/redirect.server";
import { clientIp } from "~/lib/client-ip.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/whatsapp";

/**
 * GET /whatsapp?pagina=…&imovel=…&mensagem=… — the public site's WhatsApp buttons (issue 25,
 * decision 028): records the tap, then 302 to the broker's wa.me chat with the same prefilled
 * message the button had. Anyone may follow it; kept out of the page cache and robots.txt.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const runtime = await getRuntime();
  const broker = await loadBrokerProfile(runtime.db);
  return whatsappRedirect(request, { db: runtime.db, broker, publicUrl: runtime.env.publicUrl, ip: clientIp(request, context) });
}
