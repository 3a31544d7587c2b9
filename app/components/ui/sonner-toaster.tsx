import { useEffect } from "react";
import { Toaster } from "sonner";

/** sonner's toaster with our settings; loaded on demand by toaster.tsx. */
export default function SonnerToaster({ onMounted }: { onMounted: () => void }) {
  useEffect(() => onMounted(), [onMounted]);
  return (
    <Toaster
      position="top-center"
      richColors
      closeButton
      duration={5000}
      toastOptions={{ classNames: { toast: "font-sans text-sm" } }}
      containerAriaLabel="Notificações"
    />
  );
}
