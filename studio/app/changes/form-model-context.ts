// The form model (the forms the schemas make) for screens that name places in the form's words
// outside an open file: the publish, review and history screens. Null until the schemas are read.
import { createContext, useContext } from 'react';
import type { FormModel } from '../fields/form-model.ts';

const FormModelContext = createContext<FormModel | null>(null);

export const FormModelProvider = FormModelContext.Provider;

export function useFormModel(): FormModel | null {
  return useContext(FormModelContext);
}
