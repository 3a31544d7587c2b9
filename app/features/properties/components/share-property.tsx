import { useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";

/** How long 'Link copiado' stays on screen (long enough to read, then a new copy says it again). */
const MESSAGE_MS = 4000;

/**
 * Sharing a listing (issue 13): the system's share sheet where the browser has one (phones),
 * otherwise the link is copied and 'Link copiado' is said in a live region; and a WhatsApp link
 * that opens a chat picker with the title and the address (the preview brings photo and price).
 */
export function ShareProperty({ title, text, url }: { title: string; text: string; url: string }) {
  const [message, setMessage] = useState("");

  function say(next: string) {
    setMessage(next);
    setTimeout(() => setMessage((current) => (current === next ? "" : current)), MESSAGE_MS);
  }

  async function share() {
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        // Closed by the visitor: nothing to do. Refused (no sheet, a desktop without targets): copy.
        if ((error as Error).name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      say("Link copiado");
    } catch {
      say(`Não foi possível copiar. O link é: ${url}`);
    }
  }

  return (
    <>
      <button type="button" className={buttonClass("outline")} onClick={share}>
        <Icon name="share-2" /> Compartilhar
      </button>
      <a
        href={`https://wa.me/?text=${encodeURIComponent(`${title}\n${url}`)}`}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClass("outline")}
        aria-label="Compartilhar no WhatsApp"
      >
        <Icon name="whatsapp" className="text-whatsapp" /> WhatsApp
      </a>
      <p role="status" aria-live="polite" className="basis-full text-sm font-medium text-success">
        {message}
      </p>
    </>
  );
}
