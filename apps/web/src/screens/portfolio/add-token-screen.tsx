export const AddTokenScreen = () => <section data-screen="AddTokenScreen" />;
