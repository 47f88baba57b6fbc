export const EditTokenScreen = () => <section data-screen="EditTokenScreen" />;
