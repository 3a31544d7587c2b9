import { Link } from "react-router";

/** One line beside every lead form (LGPD): why we ask, and where to read more. */
export function PrivacyNote() {
  return (
    <p className="text-xs text-muted-foreground">
      Usamos seus dados só para responder ao seu contato.{" "}
      <Link to="/privacidade" className="font-medium text-primary underline underline-offset-2">
        Política de Privacidade
      </Link>
    </p>
  );
}
