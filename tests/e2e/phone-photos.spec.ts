import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Photos straight from a phone camera (issue 11): a 9 MB photo is shrunk in the browser and
 * uploads (the server's 5 MB limit stays), in the property dialog and for the broker's portrait;
 * an iPhone HEIC photo the browser cannot decode gets a clear message and nothing is sent.
 */

const FIVE_MB = 5 * 1024 * 1024;

/** A phone-sized photo of random noise (which JPEG cannot compress): about 9 MB. */
async function bigPhoto(): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

/** The body of every upload the page sends, as it leaves the browser. */
function watchUploads(page: Page) {
  const bodies: number[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/crm/midia") bodies.push(request.postDataBuffer()?.length ?? 0);
  });
  return bodies;
}

test.describe.configure({ mode: "serial" });

test("a 9 MB photo from a phone camera is shrunk in the browser and uploads in the property dialog", async ({ page }) => {
  const photo = await bigPhoto();
  expect(photo.length).toBeGreaterThan(8 * 1024 * 1024);
  await signInAsAdmin(page);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Imóvel" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
  const uploads = watchUploads(page);

  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === "/crm/midia" && response.request().method() === "POST");
  await dialog.locator('input[type="file"]').setInputFiles({ name: "IMG_20261124_101500.jpg", mimeType: "image/jpeg", buffer: photo });
  expect((await answer).status()).toBe(200);
  const photos = dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem");
  await expect(photos).toHaveCount(1);
  await expect(photos.first().getByRole("img", { name: "Foto 1", exact: true })).toHaveAttribute("src", /^\/media\/[0-9a-f-]+\/400\.webp$/);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toBeLessThan(FIVE_MB);
  await expect(page.getByText(/Erro ao fazer upload/)).toHaveCount(0);
});

test("an iPhone HEIC photo the browser cannot open gets a clear message, and nothing is sent", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Imóvel" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
  const uploads = watchUploads(page);
  // The start of a real HEIC file (an ISO-BMFF 'ftyp' box of brand heic), which Chromium does not decode.
  const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic"), Buffer.alloc(4096, 7)]);
  await dialog.locator('input[type="file"]').setInputFiles({ name: "IMG_0042.HEIC", mimeType: "", buffer: heic });
  await expect(page.getByText("Erro ao fazer upload das imagens: IMG_0042.HEIC: este navegador não abre fotos HEIC.", { exact: false })).toBeVisible();
  await expect(dialog.getByRole("list", { name: /Fotos do imóvel/ })).toHaveCount(0);
  expect(uploads).toHaveLength(0);
});

test("the broker's portrait from a phone camera uploads too", async ({ page }) => {
  const photo = await bigPhoto();
  await signInAsAdmin(page);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const uploads = watchUploads(page);
  await page.getByLabel("Enviar nova foto").setInputFiles({ name: "retrato-celular.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(page.getByText("Foto enviada. Salve o perfil para publicá-la.")).toBeVisible();
  await expect(page.getByTestId("portrait-preview")).toHaveAttribute("src", /^\/media\/[0-9a-f-]+\/400\.webp$/);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toBeLessThan(FIVE_MB);
});
