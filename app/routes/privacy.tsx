import { loadRetentionMonths } from "~/features/privacy/retention.server";
import { rootDataFromMatches } from "~/features/site/root-data";
import { WHATSAPP_REL, whatsappHref } from "~/features/whatsapp/links";
import { pageMeta } from "~/lib/seo";
import { useRootData } from "~/root";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { broker, publicUrl } = rootDataFromMatches(matches);
  return pageMeta({
    title: `Política de Privacidade | ${broker.siteName}`,
    description: "Como tratamos os dados enviados pelos formulários do site, por quanto tempo e como pedir acesso, correção ou exclusão (LGPD).",
    url: `${publicUrl}/privacidade`,
    siteName: broker.siteName,
  });
};

/**
 * The retention period the daily job applies (a CRM setting): the page states the same number
 * the code keeps. A change of the setting drops the cached page (settings change events).
 */
export async function loader() {
  return { retentionMonths: await loadRetentionMonths((await getRuntime()).db) };
}

/** "24 meses (2 anos)", "18 meses", "12 meses (1 ano)". */
function periodText(months: number): string {
  if (months % 12 !== 0) return `${months} meses`;
  const years = months / 12;
  return `${months} meses (${years} ${years === 1 ? "ano" : "anos"})`;
}

/** What the LGPD asks a controller to tell people whose data it keeps, and how to ask for it. */
export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  const { broker } = useRootData();
  const section = "mt-8 text-xl font-semibold";
  const link = "text-primary underline";
  const period = periodText(loaderData.retentionMonths);
  return (
    <article className="container-page max-w-3xl py-10 leading-relaxed">
      <h1 className="font-display text-3xl font-bold">Política de Privacidade</h1>
      <p className="mt-2 text-sm text-muted-foreground">Lei Geral de Proteção de Dados (Lei nº 13.709/2018)</p>

      <h2 className={section}>Quem cuida dos seus dados</h2>
      <p className="mt-2">
        O controlador dos dados é {broker.name}, corretor de imóveis ({broker.creci}), em {broker.city}. Contato:{" "}
        <a className={link} href={`mailto:${broker.email}`}>{broker.email}</a> ou telefone {broker.phone}.
      </p>

      <h2 className={section}>Quais dados e para quê</h2>
      <p className="mt-2">
        Quando você agenda uma visita ou envia uma mensagem, guardamos o nome, o telefone, o email (quando
        informado), a mensagem e, no agendamento, o imóvel de interesse. Durante o atendimento, também registramos
        anotações sobre a conversa e as visitas combinadas. Usamos esses dados só para responder ao seu contato,
        combinar visitas e acompanhar a negociação — a base legal é o seu pedido (procedimentos preliminares a um
        contrato) e o seu consentimento ao enviar o formulário. Registramos também o endereço de rede de quem envia,
        por pouco tempo, apenas para evitar envios automáticos (spam).
      </p>
      <p className="mt-2">
        Se você é proprietário de um imóvel que anunciamos, guardamos o seu nome, telefone, email, CPF ou CNPJ e a
        autorização de venda ou locação que você assinou, só para cuidar do anúncio e prestar contas a você. Esses
        dados ficam apenas no sistema interno da corretora e nunca aparecem no site nem nos portais; enquanto o imóvel
        estiver conosco e depois pelo prazo que a lei exigir, e você pode pedir acesso, correção ou exclusão como
        descrito abaixo.
      </p>
      <p className="mt-2">
        Se você cria um alerta &ldquo;Me avise quando surgir um imóvel assim&rdquo;, guardamos o seu email, o WhatsApp
        (se informado) e a busca, só para enviar no máximo um email por dia com os imóveis novos ou que baixaram de
        preço. O alerta só começa depois que você confirma pelo link do email; sem confirmação, ele é apagado em 7
        dias. Todo email do alerta tem um link para cancelá-lo, e o alerta cancelado é apagado na hora.
      </p>

      <h2 className={section}>Com quem compartilhamos</h2>
      <p className="mt-2">
        Não vendemos nem cedemos seus dados. Eles ficam no servidor que hospeda este site. Se você escolher
        continuar a conversa pelo WhatsApp, as mensagens seguem as regras desse aplicativo. Quando você toca num botão
        do WhatsApp do site, contamos o toque — só a página e o imóvel, nada sobre você — antes de abrir o aplicativo.
      </p>

      <h2 className={section}>Por quanto tempo</h2>
      <p className="mt-2">
        Guardamos os dados de contato por até {period} depois do último movimento do seu atendimento — a sua
        mensagem, uma anotação, uma mudança na negociação ou uma visita. Passado esse prazo, um processo automático,
        que roda todos os dias, apaga o seu nome, telefone, email e os textos sobre você. Fica apenas um registro sem
        identificação (por exemplo, que um contato chegou pelo site em tal mês), que não permite saber quem você é.
        Quando houver um contrato (de compra ou locação), alguns dados podem ser guardados pelo prazo que a lei
        exigir.
      </p>

      <h2 className={section}>Seus direitos</h2>
      <p className="mt-2">A qualquer momento e sem custo, você pode pedir:</p>
      <ul className="mt-2 list-disc space-y-2 pl-6">
        <li>
          <strong>Acesso:</strong> saber se guardamos dados seus e receber uma cópia de tudo — contatos, anotações,
          visitas e emails enviados sobre você — em arquivo (JSON ou planilha CSV).
        </li>
        <li>
          <strong>Correção:</strong> corrigir dados incompletos, errados ou desatualizados.
        </li>
        <li>
          <strong>Exclusão:</strong> apagar seus dados. Trocamos seu nome, telefone, email e os textos sobre você por
          uma marca anônima em todos os registros; depois disso, ninguém consegue saber que eram seus.
        </li>
        <li>
          <strong>Informação e consentimento:</strong> saber como e com quem seus dados são usados, e retirar o seu
          consentimento.
        </li>
      </ul>

      <h2 className={section}>Como pedir</h2>
      <p className="mt-2">
        Escreva para <a className={link} href={`mailto:${broker.email}`}>{broker.email}</a> ou chame no{" "}
        <a className={link} href={whatsappHref("privacidade")} target="_blank" rel={WHATSAPP_REL}>WhatsApp</a>{" "}
        dizendo o que você quer e o telefone ou email que usou no contato. Para proteger seus dados, podemos confirmar
        o pedido por esse mesmo telefone ou email antes de enviar a cópia ou de apagar. Respondemos em até 15 dias. Se
        não ficar satisfeito, você pode reclamar à Autoridade Nacional de Proteção de Dados (ANPD).
      </p>

      <h2 className={section}>Cookies</h2>
      <p className="mt-2">
        O site público não usa cookies de rastreamento nem de publicidade. Apenas a área restrita da equipe (CRM)
        usa um cookie de sessão, necessário para o login.
      </p>
    </article>
  );
}
