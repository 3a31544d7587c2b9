import { cn } from "~/lib/utils";

export function Spinner({ className, label = "Carregando" }: { className?: string; label?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center", className)}>
      <span
        aria-hidden="true"
        className="size-8 rounded-full border-4 border-primary/25 border-t-primary [animation:spin_0.8s_linear_infinite]"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
