import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PRODUCT_IMAGE_MAX_MB } from '@depot/contracts';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { FieldError } from '../http/errors.ts';
import { readUpload } from '../http/upload.ts';

/**
 * The one picture pipeline (products, users' pictures, the settings' logo and favicon): an upload
 * is judged by what its bytes are (not the file's name or declared type), at most `IMAGE_MAX_MB`,
 * and re-encoded by sharp into the sizes its owner asks for under the uploads folder, served at
 * `/uploads/…` (immutable: a new picture gets a new name).
 */
export const IMAGE_MAX_MB = PRODUCT_IMAGE_MAX_MB;
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);

/** Multipart bodies and the `/uploads/` folder: registered once, before any module that uploads. */
export async function registerUploads(app: FastifyInstance, uploadsDir: string): Promise<void> {
  await fs.mkdir(uploadsDir, { recursive: true });
  await app.register(fastifyMultipart, { limits: { fileSize: IMAGE_MAX_MB * 1024 * 1024, files: 1 } });
  await app.register(fastifyStatic, {
    root: path.resolve(uploadsDir),
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });
}

/**
 * The request's one picture (through `readUpload`, so a broken body is a 422, never a 500), checked
 * to be a JPEG, PNG or WebP by its bytes; else 422 on `field`.
 */
export async function readImage(request: FastifyRequest, field = 'image'): Promise<Buffer> {
  const tooLarge = () => new FieldError({ [field]: [{ key: 'validation.image_size', params: { mb: IMAGE_MAX_MB } }] });
  const { bytes } = await readUpload(request, { field, maxBytes: IMAGE_MAX_MB * 1024 * 1024, tooLarge });
  if (!bytes) throw new FieldError({ [field]: [{ key: 'validation.required' }] });
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  if (!meta?.format || !ACCEPTED.has(meta.format))
    throw new FieldError({ [field]: [{ key: 'validation.image_type' }] });
  return bytes;
}

/** One size a picture is kept in: `inside` keeps its shape, `cover` crops a square. */
export interface ImageVariant {
  suffix: string;
  size: number;
  fit: 'inside' | 'cover';
  format: 'webp' | 'png';
}

/**
 * Writes the picture in each variant as `folder/<prefix>-<random><suffix>.<format>` and answers
 * the paths relative to the uploads folder, in the variants' order.
 */
export async function storeImage(
  uploadsDir: string,
  folder: string,
  prefix: string,
  bytes: Buffer,
  variants: readonly ImageVariant[],
): Promise<string[]> {
  await fs.mkdir(path.join(uploadsDir, folder), { recursive: true });
  const name = `${prefix}-${randomBytes(6).toString('hex')}`;
  const picture = sharp(bytes).rotate();
  const paths: string[] = [];
  for (const variant of variants) {
    const file = `${folder}/${name}${variant.suffix}.${variant.format}`;
    const resized = picture
      .clone()
      .resize(variant.size, variant.size, { fit: variant.fit, withoutEnlargement: variant.fit === 'inside' });
    await (variant.format === 'webp' ? resized.webp({ quality: 82 }) : resized.png()).toFile(
      path.join(uploadsDir, file),
    );
    paths.push(file);
  }
  return paths;
}

/** Removes pictures no record names any more (a replaced or removed one). */
export async function removeImages(uploadsDir: string, files: readonly (string | null | undefined)[]): Promise<void> {
  for (const file of files) {
    if (file && !file.includes('..'))
      await fs.rm(path.join(uploadsDir, file.replace(/^\/uploads\//, '')), { force: true });
  }
}
