/**
 * Inquiry forms are the largest repeated piece of a page (about 80
 * elements) and differ only in the route path and the product name. Inside
 * renderRoute each form is emitted as an empty <template data-slot="form-N">
 * and its props are collected here; the render stage then puts in the form
 * rendered once per kind, with the two values escaped exactly as React
 * escapes attributes. Outside renderRoute (no sink) forms render directly.
 */
import { createContext } from 'react';
import type { InquiryFormProps } from './InquiryFields.js';

export interface SlotSink {
  forms: InquiryFormProps[];
}

export const SlotContext = createContext<SlotSink | null>(null);

export const formSlot = (index: number): string => `<template data-slot="form-${index}"></template>`;
