import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";

/**
 * "CSV" and "XLSX" download links for one table (issue 12). `href` is the export route without
 * its format, e.g. "/crm/relatorios/exportar?relatorio=origens&periodo=30d" or
 * "/crm/leads/exportar?status=novo&busca=ana"; `label` names what is downloaded, so a screen
 * reader hears "Exportar Leads por origem em CSV" rather than "CSV" twice on a page.
 * Plain links with `download`: the browser saves the file and the page stays as it is.
 */
export function ExportButtons({ href, label, className }: { href: string; label: string; className?: string }) {
  const withFormat = (format: "csv" | "xlsx") => `${href}${href.includes("?") ? "&" : "?"}formato=${format}`;
  return (
    <div className={cn("flex flex-wrap items-center gap-2", className)}>
      {(["csv", "xlsx"] as const).map((format) => (
        <a
          key={format}
          href={withFormat(format)}
          download
          className={buttonClass("outline", "sm")}
          aria-label={`Exportar ${label} em ${format.toUpperCase()}`}
          data-export={format}
        >
          <Icon name={format === "csv" ? "download" : "file-spreadsheet"} className="size-4" />
          {format.toUpperCase()}
        </a>
      ))}
    </div>
  );
}
