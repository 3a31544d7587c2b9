import { useFormContext, useWatch } from "react-hook-form";
import { portalExclusionReasons } from "~/features/portals/feed-rules";
import { parseBRLInput } from "~/lib/money";
import type { PropertyFormInput } from "../../crm-schema";
import { CheckboxField, FormSection } from "./controls";
import { PortalIssuesCheck } from "./portal-issues";

/** Portais: the feed's switch, and what would keep this listing out of it as the form stands. */
export function PortalsSection() {
  const { control } = useFormContext<PropertyFormInput>();
  const [status, publish, images, title, description, price] = useWatch({
    control,
    name: ["status", "publish_to_portals", "images", "title", "description", "price"],
  });
  const reasons = portalExclusionReasons({
    status: (status || "disponivel") as never,
    publish_to_portals: publish === true,
    images: images ?? [],
    title: typeof title === "string" ? title : "",
    description: typeof description === "string" ? description : "",
    price: typeof price === "string" && price ? parseBRLInput(price) : 0,
  });
  return (
    <FormSection id="portais" title="Portais">
      <CheckboxField name="publish_to_portals" label="Publicar nos portais" hint="ZAP Imóveis, VivaReal e OLX, pelo feed em Configurações → Portais." />
      <p className="text-sm">
        {reasons.length === 0 ? (
          <span className="text-emerald-800">Este anúncio vai para os portais ao salvar.</span>
        ) : (
          <span className="text-amber-800">Fora dos portais: {reasons.join(", ")}.</span>
        )}
      </p>
      <PortalIssuesCheck />
    </FormSection>
  );
}
