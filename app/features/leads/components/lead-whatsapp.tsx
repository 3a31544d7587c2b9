import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { fillTemplate, type WhatsappTemplate } from "~/features/settings/templates";
import { leadWhatsappLink } from "../contact-links";

/** One wa.me link per template, filled with the lead's first name and the property. */
export function LeadWhatsapp({
  phone,
  templates,
  values,
}: {
  phone: string;
  templates: WhatsappTemplate[];
  values: Parameters<typeof fillTemplate>[1];
}) {
  return (
    <ul className="grid gap-2">
      {templates.map((template) => {
        const message = fillTemplate(template.body, values);
        return (
          <li key={template.id}>
            <a
              href={leadWhatsappLink(phone, message)}
              target="_blank"
              rel="noopener noreferrer"
              className={`${buttonClass("whatsapp", "sm")} w-full justify-start`}
              title={message}
              data-template={template.id}
            >
              <Icon name="whatsapp" /> <span className="truncate">{template.name}</span>
            </a>
          </li>
        );
      })}
      <li>
        <a href={leadWhatsappLink(phone)} target="_blank" rel="noopener noreferrer" className={`${buttonClass("outline", "sm")} w-full justify-start`}>
          <Icon name="message-circle" /> Mensagem em branco
        </a>
      </li>
    </ul>
  );
}
