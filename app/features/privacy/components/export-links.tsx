import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";

/** 'Exportar dados' in both formats; `query` names the person (`lead=<id>` or `alerta=<id>`). */
export function ExportLinks({ query }: { query: string }) {
  const href = (format: "json" | "csv") => `/crm/privacidade/exportar?${query}&formato=${format}`;
  return (
    <>
      <a href={href("json")} download className={buttonClass("outline")}>
        <Icon name="download" /> Exportar dados (JSON)
      </a>
      <a href={href("csv")} download className={buttonClass("outline")}>
        <Icon name="file-spreadsheet" /> Exportar dados (CSV)
      </a>
    </>
  );
}
